//! hyper's own replies in the API's error shape. hyper answers a request it cannot parse (400 for
//! a malformed request line or header, 414 for an over-long URI, 431 for a head over the size or
//! header-count limit) itself, with an empty body, before the router sees anything; and it closes a
//! connection whose headers do not arrive within the header timeout without a word. [`Shaped`]
//! wraps a connection's stream: it rewrites hyper's bodiless error replies into
//! `{"status": "error", "message": …}` replies, and, when told the header timeout ended the
//! connection while a request was half sent, answers `408` in the same shape before closing.

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

use crate::closing_reply::closing_error_reply;

/// The most bytes a request's head (request line and headers) may take.
pub const MAX_HEAD_BYTES: usize = 64 * 1024;
/// The most header fields a request may carry.
pub const MAX_HEADERS: usize = 100;

/// A connection's stream whose protocol-level error replies carry the API's JSON error body.
#[derive(Debug)]
pub struct Shaped {
    stream: TcpStream,
    header_timeout: Duration,
    /// Bytes of a request arrived that no reply has answered yet.
    unanswered: bool,
    /// The reply being written in place of hyper's, and how much of hyper's buffer it stands for.
    replacing: Option<(Vec<u8>, usize, usize)>,
    /// Set by the server when the header timeout ended the connection.
    timed_out: Arc<AtomicBool>,
}

impl Shaped {
    /// Wraps `stream`; `timed_out`, set before the stream is dropped, asks for a `408` reply.
    #[must_use]
    pub fn new(stream: TcpStream, header_timeout: Duration, timed_out: Arc<AtomicBool>) -> Self {
        Self {
            stream,
            header_timeout,
            unanswered: false,
            replacing: None,
            timed_out,
        }
    }
}

/// The JSON reply for `status` (`"400 Bad Request"` …), or `None` for a status hyper never sends.
fn json_reply(status_line: &str, header_timeout: Duration) -> Option<Vec<u8>> {
    let code = status_line.split(' ').next()?;
    let message = match code {
        "400" => String::from("malformed HTTP request: the request line or a header could not be parsed"),
        "408" => format!(
            "request headers not received within the header timeout ({} ms)",
            header_timeout.as_millis()
        ),
        "414" => format!("the request URI is too long (the request head may take at most {MAX_HEAD_BYTES} bytes)"),
        "431" => format!(
            "request header fields too large: the request head may take at most {MAX_HEAD_BYTES} bytes and {MAX_HEADERS} header fields"
        ),
        _ => return None,
    };
    Some(closing_error_reply(status_line, &message, ""))
}

/// hyper's automatic reply in `buf` — a 400/414/431 head with `content-length: 0` and nothing after
/// it — as its JSON replacement. The router's own error replies always have a body.
fn replacement_for(buf: &[u8], header_timeout: Duration) -> Option<Vec<u8>> {
    // Cheap tests first: every response passes through here.
    if !matches!(buf.get(9..12)?, b"400" | b"414" | b"431") || buf.len() > 1024 || !buf.ends_with(b"\r\n\r\n") {
        return None;
    }
    let text = std::str::from_utf8(buf).ok()?;
    let head = text.strip_suffix("\r\n\r\n")?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next()?.strip_prefix("HTTP/1.1 ")?;
    if !matches!(status_line.get(..3)?, "400" | "414" | "431") {
        return None;
    }
    if !lines.any(|line| line.eq_ignore_ascii_case("content-length: 0")) {
        return None;
    }
    json_reply(status_line, header_timeout)
}

impl AsyncRead for Shaped {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        ready!(Pin::new(&mut self.stream).poll_read(cx, buf))?;
        if buf.filled().len() > before {
            self.unanswered = true;
        }
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for Shaped {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        if buf.starts_with(b"HTTP/1.1 ") {
            self.unanswered = false;
            if self.replacing.is_none() {
                if let Some(reply) = replacement_for(buf, self.header_timeout) {
                    self.replacing = Some((reply, 0, buf.len()));
                }
            }
        }
        let this = &mut *self;
        if let Some((reply, written, stands_for)) = &mut this.replacing {
            while *written < reply.len() {
                let n = ready!(Pin::new(&mut this.stream).poll_write(cx, &reply[*written..]))?;
                if n == 0 {
                    return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
                }
                *written += n;
            }
            let consumed = *stands_for;
            this.replacing = None;
            return Poll::Ready(Ok(consumed));
        }
        Pin::new(&mut this.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

impl Drop for Shaped {
    /// A connection the header timeout ended while a request was half sent gets its `408`, if the
    /// socket takes it now (a best effort: it never waits).
    fn drop(&mut self) {
        if self.unanswered && self.timed_out.load(Ordering::Acquire) {
            if let Some(reply) = json_reply("408 Request Timeout", self.header_timeout) {
                let _ = self.stream.try_write(&reply);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIMEOUT: Duration = Duration::from_secs(10);

    #[test]
    fn hypers_bodiless_error_replies_are_replaced() {
        let hyper_reply = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: Thu, 26 Nov 2026 02:00:00 GMT\r\n\r\n";
        let reply = String::from_utf8(replacement_for(hyper_reply, TIMEOUT).unwrap()).unwrap();
        assert!(
            reply.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"),
            "{reply}"
        );
        let body: serde_json::Value = serde_json::from_str(reply.split("\r\n\r\n").nth(1).unwrap()).unwrap();
        assert_eq!(body["status"], "error");
        assert!(body["message"].as_str().unwrap().contains("65536 bytes"), "{body}");
        let declared: usize = reply
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(declared, reply.split("\r\n\r\n").nth(1).unwrap().len());
    }

    #[test]
    fn replies_with_a_body_or_another_status_pass_through() {
        let with_body = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n";
        assert!(replacement_for(with_body, TIMEOUT).is_none());
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        assert!(replacement_for(ok, TIMEOUT).is_none());
        let head_and_body = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\nxx";
        assert!(replacement_for(head_and_body, TIMEOUT).is_none());
        assert!(replacement_for(b"\xff\xfe", TIMEOUT).is_none());
    }

    #[test]
    fn the_timeout_reply_names_the_timeout() {
        let reply = String::from_utf8(json_reply("408 Request Timeout", Duration::from_millis(1500)).unwrap()).unwrap();
        assert!(reply.contains("1500 ms"), "{reply}");
    }
}
