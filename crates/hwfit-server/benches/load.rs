//! HTTP load benchmark of `hwfit serve`: the real router on a loopback port, driven by keep-alive
//! HTTP/1.1 connections that each send `POST /hardware/select` back to back for a fixed time.
//! Prints requests per second and latency percentiles; fails on any answer but 200 or any connection
//! error. Bounded in time (`HWFIT_LOAD_SECONDS`) and count (`HWFIT_LOAD_MAX_REQUESTS`).
//!
//! ```text
//! cargo bench -p hwfit-server --bench load                      # 32 connections, 10 s
//! HWFIT_LOAD_CONNECTIONS=64 HWFIT_LOAD_SECONDS=20 cargo bench -p hwfit-server --bench load
//! ```
//!
//! Client and server share the machine's cores, as on a single host behind a local proxy.

#![allow(clippy::print_stdout, reason = "a benchmark reports on stdout")]
#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "percentile arithmetic on counts"
)]

use std::time::{Duration, Instant};

use hwfit_core::Hwfit;
use hwfit_server::{router, AppState, ServerOptions};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

const BODY: &str = r#"{"model_name":"bert-base-uncased","hardware":["cpu","cuda","rocm","mps"],"batch_size":8}"#;

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Sends requests on one connection until `until` or `max` requests; returns each 200's latency in
/// microseconds and the count of other answers.
async fn connection(addr: std::net::SocketAddr, until: Instant, max: u64) -> (Vec<u32>, u64) {
    let stream = TcpStream::connect(addr).await.expect("connect");
    stream.set_nodelay(true).expect("nodelay");
    let mut stream = BufReader::new(stream);
    let request = format!(
        "POST /hardware/select HTTP/1.1\r\nhost: bench\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{BODY}",
        BODY.len()
    );
    let mut latencies = Vec::new();
    let mut failures = 0;
    let mut line = String::new();
    let mut body = Vec::new();
    while Instant::now() < until && (latencies.len() as u64) + failures < max {
        let start = Instant::now();
        stream.get_mut().write_all(request.as_bytes()).await.expect("write");
        let mut length = 0;
        line.clear();
        stream.read_line(&mut line).await.expect("status line");
        let ok = line.starts_with("HTTP/1.1 200");
        loop {
            line.clear();
            stream.read_line(&mut line).await.expect("header");
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().expect("content-length");
                }
            }
        }
        body.resize(length, 0);
        stream.read_exact(&mut body).await.expect("body");
        if ok {
            latencies.push(u32::try_from(start.elapsed().as_micros()).unwrap_or(u32::MAX));
        } else {
            failures += 1;
        }
    }
    (latencies, failures)
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    f64::from(sorted[rank]) / 1000.0
}

fn main() {
    let connections = setting("HWFIT_LOAD_CONNECTIONS", 32);
    let seconds = setting("HWFIT_LOAD_SECONDS", 10);
    let max_per_connection = setting("HWFIT_LOAD_MAX_REQUESTS", 2_000_000) / connections.max(1);
    let threads = setting(
        "HWFIT_LOAD_THREADS",
        std::thread::available_parallelism().map_or(1, |n| n.get() as u64),
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads as usize)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async move {
        let state = AppState::new(Hwfit::builtin().expect("knowledge"), hwfit_server::HostHardware::Off, None);
        let app = router(state, &ServerOptions::default()).expect("router");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        tokio::spawn(async move { axum::serve(listener, app).await.expect("serve") });

        // Warm-up, then the measured run.
        let warm = Instant::now() + Duration::from_secs(1);
        let _ = connection(addr, warm, u64::MAX).await;
        let start = Instant::now();
        let until = start + Duration::from_secs(seconds);
        let tasks: Vec<_> = (0..connections)
            .map(|_| tokio::spawn(connection(addr, until, max_per_connection)))
            .collect();
        let mut latencies = Vec::new();
        let mut failures = 0;
        for t in tasks {
            let (ok, failed) = t.await.expect("client task");
            latencies.extend(ok);
            failures += failed;
        }
        let elapsed = start.elapsed().as_secs_f64();
        latencies.sort_unstable();
        println!(
            "POST /hardware/select: {} requests in {elapsed:.1} s over {connections} keep-alive connections, {threads} runtime threads",
            latencies.len()
        );
        println!(
            "  {:.0} req/s; latency p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            latencies.len() as f64 / elapsed,
            percentile(&latencies, 50.0),
            percentile(&latencies, 90.0),
            percentile(&latencies, 99.0),
            percentile(&latencies, 100.0),
        );
        println!("  {failures} answers other than 200 (connection errors stop the run)");
        assert_eq!(failures, 0, "the server answered {failures} requests with an error status");
    });
}
