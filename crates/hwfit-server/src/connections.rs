//! Accepting connections within stated bounds: how many may be open at once, in total and per
//! client address, and how long a client may take to send a request's headers. A client that
//! opens connections and trickles headers (slowloris) holds at most its own share of them, and
//! each for at most the header timeout; a connection over a cap gets a `503` in the API's JSON
//! error shape and is closed.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

use crate::closing_reply::closing_error_reply;
use crate::protocol_errors::{Shaped, MAX_HEADERS, MAX_HEAD_BYTES};

/// Bounds on the connections a server keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Connections open at once, all clients together.
    pub max_connections: usize,
    /// Connections open at once from one client address.
    pub max_connections_per_client: usize,
    /// Longest a client may take to send a request's headers (each request of a kept-alive
    /// connection, too).
    pub header_timeout: Duration,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        Self {
            max_connections: 1024,
            max_connections_per_client: 64,
            header_timeout: Duration::from_secs(10),
        }
    }
}

/// The connections open now.
#[derive(Debug, Default)]
struct Open {
    total: usize,
    by_client: HashMap<IpAddr, usize>,
}

/// One open connection's place in the count, given back when the connection ends.
#[derive(Debug)]
struct Slot {
    open: Arc<Mutex<Open>>,
    client: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.total = open.total.saturating_sub(1);
        if let Entry::Occupied(mut count) = open.by_client.entry(self.client) {
            *count.get_mut() -= 1;
            if *count.get() == 0 {
                count.remove();
            }
        }
    }
}

/// A place for a connection from `client`, or which cap it would break.
fn take_slot(open: &Arc<Mutex<Open>>, client: IpAddr, limits: &ConnectionLimits) -> Result<Slot, String> {
    let mut state = open.lock().unwrap_or_else(PoisonError::into_inner);
    if state.total >= limits.max_connections {
        return Err(format!(
            "the server has {} connections open, its limit",
            limits.max_connections
        ));
    }
    let mine = state.by_client.entry(client).or_insert(0);
    if *mine >= limits.max_connections_per_client {
        return Err(format!(
            "this client has {} connections open, the limit per client",
            limits.max_connections_per_client
        ));
    }
    *mine += 1;
    state.total += 1;
    Ok(Slot {
        open: Arc::clone(open),
        client,
    })
}

/// Answers a connection over a cap with a `503` in the API's error shape, and closes it.
async fn refuse(mut stream: TcpStream, why: String) {
    let reply = closing_error_reply(
        "503 Service Unavailable",
        &format!("too many connections: {why}; retry later"),
        "retry-after: 1\r\n",
    );
    let write = async {
        stream.write_all(&reply).await?;
        stream.shutdown().await
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), write).await;
}

/// Serves `app` on `listener` within `limits` until `shutdown` completes, then lets the open
/// connections finish their requests.
pub async fn serve_with_limits(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) {
    let open = Arc::new(Mutex::new(Open::default()));
    let (stop, stopping) = watch::channel(false);
    let (all_closed, still_open) = watch::channel(());
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors and the like: let the open connections drain a little.
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        match take_slot(&open, peer.ip(), &limits) {
            Ok(slot) => {
                let connection = Connection {
                    slot,
                    stopping: stopping.clone(),
                    open_marker: still_open.clone(),
                };
                tokio::spawn(connection.serve(stream, app.clone(), limits.header_timeout));
            }
            Err(why) => {
                tracing::debug!(%peer, %why, "connection refused");
                tokio::spawn(refuse(stream, why));
            }
        }
    }
    let _ = stop.send(true);
    drop(still_open);
    all_closed.closed().await;
}

/// One accepted connection and what it holds while it lives.
struct Connection {
    slot: Slot,
    stopping: watch::Receiver<bool>,
    /// Dropped when the connection ends: the server waits for all of them at shutdown.
    open_marker: watch::Receiver<()>,
}

impl Connection {
    async fn serve(mut self, stream: TcpStream, app: Router, header_timeout: Duration) {
        let mut builder = http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(header_timeout)
            .max_header_size(MAX_HEAD_BYTES)
            .max_headers(MAX_HEADERS);
        let timed_out = Arc::new(AtomicBool::new(false));
        let stream = Shaped::new(stream, header_timeout, Arc::clone(&timed_out));
        let conn = builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app));
        tokio::pin!(conn);
        let mut shutting_down = false;
        loop {
            tokio::select! {
                result = conn.as_mut() => {
                    if let Err(e) = result {
                        tracing::debug!(error = %e, "connection ended with an error");
                        // The stream, dropped with the connection, answers a half-sent request 408.
                        timed_out.store(e.is_timeout(), Ordering::Release);
                    }
                    break;
                }
                changed = self.stopping.changed(), if !shutting_down => {
                    if changed.is_err() || *self.stopping.borrow() {
                        shutting_down = true;
                        conn.as_mut().graceful_shutdown();
                    }
                }
            }
        }
        drop(self.slot);
        drop(self.open_marker);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_count_per_client_and_in_total_and_come_back() {
        let open = Arc::new(Mutex::new(Open::default()));
        let limits = ConnectionLimits {
            max_connections: 3,
            max_connections_per_client: 2,
            header_timeout: Duration::from_secs(1),
        };
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let first = take_slot(&open, a, &limits).unwrap();
        let _second = take_slot(&open, a, &limits).unwrap();
        assert!(take_slot(&open, a, &limits).unwrap_err().contains("per client"));
        let _third = take_slot(&open, b, &limits).unwrap();
        assert!(take_slot(&open, b, &limits).unwrap_err().contains("3 connections open"));
        drop(first);
        assert!(
            take_slot(&open, a, &limits).is_ok(),
            "a closed connection gives its place back"
        );
    }
}
