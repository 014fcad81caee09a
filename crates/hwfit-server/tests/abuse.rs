//! Load and abuse on loopback, bounded in time and count: while hostile clients — slow header
//! senders, a connection flood, the largest questions the caps allow, and requests over every cap —
//! hit the server from other loopback addresses, `/health` from a well-behaved client answers within
//! 100 ms at the 99th percentile, every hostile request gets its documented answer, and the process
//! stays under a stated memory bound.

#![cfg(target_os = "linux")]
#![allow(clippy::print_stderr, reason = "the test reports its figures")]

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hwfit_core::Hwfit;
use hwfit_server::{AppState, ConnectionLimits, HostHardware, ServerOptions};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// How long the hostile clients run.
const ABUSE: Duration = Duration::from_secs(6);
/// `/health` at the 99th percentile, while they do.
const HEALTH_P99: Duration = Duration::from_millis(100);
/// Peak resident memory of the whole test process (server, clients and the core's catalogs).
const MAX_RSS_MB: u64 = 256;

/// A connection from the loopback address `from` (127.0.0.x: each its own client to the server).
async fn connect(from: [u8; 4], to: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::from((from, 0)))?;
    socket.connect(to).await
}

/// Sends `request` and reads until the server closes; the status code (0 if none came).
async fn exchange(from: [u8; 4], to: SocketAddr, request: &[u8]) -> u16 {
    let Ok(mut stream) = connect(from, to).await else {
        return 0;
    };
    if stream.write_all(request).await.is_err() {
        return 0;
    }
    let mut reply = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut reply)).await;
    std::str::from_utf8(reply.get(9..12).unwrap_or_default())
        .ok()
        .and_then(|code| code.parse().ok())
        .unwrap_or(0)
}

fn post(path: &str, body: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

fn peak_rss_mb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kb / 1024
}

/// Counts each kind of hostile request's answers: as documented, or not.
#[derive(Default)]
struct Tally {
    kinds: Mutex<BTreeMap<&'static str, (u64, u64)>>,
}

impl Tally {
    fn count(&self, status: u16, expected: &[u16], what: &'static str) {
        let ok = expected.contains(&status);
        if !ok {
            eprintln!("{what}: {status}, expected one of {expected:?}");
        }
        let mut kinds = self.kinds.lock().unwrap();
        let counts = kinds.entry(what).or_default();
        if ok {
            counts.0 += 1;
        } else {
            counts.1 += 1;
        }
    }
}

#[test]
fn health_answers_and_memory_holds_while_hostile_clients_run() {
    let server_runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let options = ServerOptions {
        connections: ConnectionLimits {
            header_timeout: Duration::from_secs(2),
            ..ConnectionLimits::default()
        },
        max_concurrent_questions: 2,
        ..ServerOptions::default()
    };
    let listener = server_runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let app = hwfit_server::router(
        AppState::new(Hwfit::builtin().unwrap(), HostHardware::Off, None),
        &options,
    )
    .unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = server_runtime.spawn(hwfit_server::serve_with_limits(
        listener,
        app,
        options.connections,
        async {
            let _ = stopped.await;
        },
    ));

    let clients = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let tally = Arc::new(Tally::default());
    let (health, hostile) = clients.block_on(async {
        let until = Instant::now() + ABUSE;
        let mut hostile = Vec::new();

        // Slow clients: 60 connections that send a header byte every 200 ms (each closed, 408, by
        // the header timeout), reopened until the end.
        for _ in 0..60 {
            let tally = Arc::clone(&tally);
            hostile.push(tokio::spawn(async move {
                while Instant::now() < until {
                    let Ok(mut stream) = connect([127, 0, 0, 2], addr).await else { continue };
                    let mut status = 0;
                    for byte in b"GET /health HTTP/1.1\r\nx-slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" {
                        if stream.write_all(&[*byte]).await.is_err() {
                            break;
                        }
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                    let mut reply = Vec::new();
                    let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut reply)).await;
                    if reply.starts_with(b"HTTP/1.1 ") {
                        status = std::str::from_utf8(&reply[9..12]).unwrap().parse().unwrap_or(0);
                    }
                    tally.count(status, &[408, 0], "slow client");
                }
            }));
        }

        // A flood: 150 connections opened at once from one address and held; those over the
        // per-client cap (64) are answered 503 at once.
        {
            let tally = Arc::clone(&tally);
            hostile.push(tokio::spawn(async move {
                let mut held = Vec::new();
                for _ in 0..150 {
                    if let Ok(stream) = connect([127, 0, 0, 3], addr).await {
                        held.push(stream);
                    }
                }
                let mut refused = 0;
                for stream in &mut held {
                    let mut first = [0u8; 12];
                    if let Ok(Ok(_)) = tokio::time::timeout(Duration::from_millis(20), stream.read_exact(&mut first)).await {
                        if &first[9..12] == b"503" {
                            refused += 1;
                        }
                    }
                }
                tally.count(if refused >= 150 - 64 { 503 } else { refused }, &[503], "connection flood");
                tokio::time::sleep_until(until.into()).await;
                drop(held);
            }));
        }

        // The largest questions the caps allow (a 10,000-cell matrix), back to back from 4 clients.
        let cells = 2500;
        let batch_sizes: Vec<String> = (1..=cells).map(|b| b.to_string()).collect();
        let matrix = post(
            "/performance/matrix",
            &format!(
                r#"{{"models": ["gpt2"], "hardware": ["cpu", "cuda"], "batch_sizes": [{}], "precisions": ["fp32", "fp16"]}}"#,
                batch_sizes.join(",")
            ),
        );
        for _ in 0..4 {
            let (tally, matrix) = (Arc::clone(&tally), matrix.clone());
            hostile.push(tokio::spawn(async move {
                while Instant::now() < until {
                    let status = exchange([127, 0, 0, 4], addr, &matrix).await;
                    tally.count(status, &[200, 408], "largest matrix");
                }
            }));
        }

        // Requests over every cap, and malformed ones.
        let over_cap: Vec<(Vec<u8>, &[u16], &str)> = vec![
            (
                post("/hardware/select", &format!(r#"{{"model_name": "{}"}}"#, "a".repeat(300_000))),
                &[422],
                "long model name",
            ),
            (
                post(
                    "/performance/matrix",
                    &format!(
                        r#"{{"models": ["gpt2"], "batch_sizes": [{}], "precisions": ["fp32", "fp16", "int8", "int4"]}}"#,
                        (1..=20_000).map(|b| b.to_string()).collect::<Vec<_>>().join(",")
                    ),
                ),
                &[422],
                "matrix over the cell cap",
            ),
            (
                b"POST /hardware/select HTTP/1.1\r\nhost: x\r\ncontent-length: 100000000\r\n\r\n".to_vec(),
                &[413],
                "declared oversize body",
            ),
            (b"GET /health HTTP/1.1\r\nbroken header\r\n\r\n".to_vec(), &[400], "malformed header"),
            (
                format!("GET /health HTTP/1.1\r\nhost: x\r\n{}\r\n", "x-h: v\r\n".repeat(200)).into_bytes(),
                &[431],
                "too many headers",
            ),
            (post("/hardware/select", r#"["gpt2"]"#), &[422], "array body"),
            (b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03\r\n\r\n".to_vec(), &[400], "TLS hello"),
        ];
        for (request, expected, what) in over_cap {
            let tally = Arc::clone(&tally);
            hostile.push(tokio::spawn(async move {
                let mut sent = 0;
                while Instant::now() < until && sent < 200 {
                    let status = exchange([127, 0, 0, 5], addr, &request).await;
                    tally.count(status, expected, what);
                    sent += 1;
                }
            }));
        }

        // The well-behaved client: /health every 20 ms on one kept-alive connection.
        let mut latencies = Vec::new();
        let mut probe = connect([127, 0, 0, 1], addr).await.unwrap();
        probe.set_nodelay(true).unwrap();
        let mut buffer = vec![0u8; 4096];
        while Instant::now() < until {
            let started = Instant::now();
            probe
                .write_all(b"GET /health HTTP/1.1\r\nhost: x\r\n\r\n")
                .await
                .unwrap();
            let n = tokio::time::timeout(Duration::from_secs(5), probe.read(&mut buffer))
                .await
                .expect("/health answers")
                .unwrap();
            assert!(buffer[..n].starts_with(b"HTTP/1.1 200"), "{}", String::from_utf8_lossy(&buffer[..n]));
            latencies.push(started.elapsed());
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        (latencies, hostile)
    });
    clients.block_on(async {
        for task in hostile {
            let _ = tokio::time::timeout(Duration::from_secs(40), task).await;
        }
    });
    let _ = stop.send(());
    server_runtime.block_on(async {
        let _ = tokio::time::timeout(Duration::from_secs(40), server).await;
    });

    let mut sorted = health.clone();
    sorted.sort();
    let p99 = sorted[(sorted.len() * 99 / 100).min(sorted.len() - 1)];
    let p50 = sorted[sorted.len() / 2];
    let rss = peak_rss_mb();
    let kinds = tally.kinds.lock().unwrap().clone();
    eprintln!(
        "/health: {} probes, p50 {p50:?}, p99 {p99:?}; peak RSS {rss} MB; hostile requests (as documented, otherwise): {kinds:?}",
        sorted.len()
    );
    assert!(sorted.len() >= 100, "enough probes: {}", sorted.len());
    assert!(p99 < HEALTH_P99, "/health p99 {p99:?} over {HEALTH_P99:?}");
    for (what, (expected, unexpected)) in &kinds {
        assert_eq!(
            *unexpected, 0,
            "{what}: every hostile request gets its documented answer"
        );
        assert!(*expected > 0, "{what}: ran");
    }
    assert_eq!(kinds.len(), 10, "every kind of hostile client ran: {kinds:?}");
    assert!(rss < MAX_RSS_MB, "peak RSS {rss} MB over {MAX_RSS_MB} MB");
}
