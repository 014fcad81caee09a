//! What the WebDriver tests share: the repository served over loopback, chromedriver, a browser
//! session with the capabilities in `webdriver/`, and running JS in the page.
#![allow(dead_code, reason = "each test file uses a part of it")]

use std::net::{SocketAddr, TcpListener as StdListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder};
use serde_json::{json, Value};

/// The repository's root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// An empty page, for scripts that import the package themselves.
const BLANK_PAGE: &str = "<!doctype html><meta charset=\"utf-8\"><title>hwfit</title>";

/// The repository over HTTP on a free loopback port (the page imports `../pkg/hwfit.js`; `/blank.html`
/// is an empty page), gzipped as any production server would, so the transferred bytes are what a
/// visitor downloads.
pub async fn serve() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = axum::Router::new()
        .route(
            "/blank.html",
            axum::routing::get(|| async { axum::response::Html(BLANK_PAGE) }),
        )
        .fallback_service(tower_http::services::ServeDir::new(workspace()))
        .layer(tower_http::compression::CompressionLayer::new());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    addr
}

/// chromedriver on a free port, killed when dropped.
pub struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn chromedriver() -> Driver {
    let port = StdListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let path = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into());
    let child = Command::new(&path)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {path}: {e}"));
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not listen on {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
    Driver { child, port }
}

/// A browser session with the capabilities of `webdriver/<file>` (the ones the wasm browser tests
/// use), at `width`×`height`.
pub async fn browser(driver: &Driver, file: &str, width: u32, height: u32) -> Client {
    let text = std::fs::read_to_string(workspace().join("webdriver").join(file)).unwrap();
    let mut caps: serde_json::Map<String, Value> = serde_json::from_str(&text).unwrap();
    let args = caps["goog:chromeOptions"]["args"].as_array_mut().unwrap();
    args.push(json!(format!("--window-size={width},{height}")));
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a chromedriver session")
}

pub async fn script(c: &Client, js: &str) -> Value {
    c.execute(js, vec![]).await.unwrap_or_else(|e| panic!("{js}: {e}"))
}

/// Runs `body` (the body of an async JS function) in the page and returns what it resolves to; a
/// rejection fails the test with its message.
pub async fn evaluate(c: &Client, body: &str) -> Value {
    let js = format!(
        "const done = arguments[0]; (async () => {{ {body} }})().then(done, (e) => done({{error: String(e)}}));"
    );
    let v = c
        .execute_async(&js, vec![])
        .await
        .unwrap_or_else(|e| panic!("{body}: {e}"));
    assert!(v.get("error").is_none(), "{body}: {v}");
    v
}
