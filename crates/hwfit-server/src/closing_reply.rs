//! Replies written straight to a connection, outside the router (a connection over the caps,
//! hyper's own protocol errors): an HTTP/1.1 head with the API's JSON error body, and the connection
//! closed after it.

/// The bytes of a `status_line` reply (`"503 Service Unavailable"` …) whose body is
/// `{"status": "error", "message": message}`; `extra_headers` are whole lines, each ending in CRLF.
#[must_use]
pub fn closing_error_reply(status_line: &str, message: &str, extra_headers: &str) -> Vec<u8> {
    let body = serde_json::json!({"status": "error", "message": message}).to_string();
    format!(
        "HTTP/1.1 {status_line}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n{extra_headers}connection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_counts_the_body_and_closes() {
        let reply = String::from_utf8(closing_error_reply(
            "503 Service Unavailable",
            "busy",
            "retry-after: 1\r\n",
        ))
        .unwrap();
        let (head, body) = reply.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 503 Service Unavailable\r\n"), "{head}");
        assert!(head.contains("retry-after: 1\r\nconnection: close"), "{head}");
        assert!(head.contains(&format!("content-length: {}", body.len())), "{head}");
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(json, serde_json::json!({"status": "error", "message": "busy"}));
    }
}
