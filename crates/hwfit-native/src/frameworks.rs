//! Frameworks and engines installed here, found without loading any of them into hwfit: the Python
//! environment's packages (PyTorch and its CUDA/ROCm/MPS build, ONNX Runtime and its execution
//! providers, OpenVINO, MLX, transformers) probed by a child interpreter, and llama.cpp's binaries
//! on `PATH` asked for their version. Every child has a time limit.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hwfit_core::detect::InstalledRuntime;
use hwfit_core::perf::Runtime;

/// How long the Python probe may take (importing torch can take seconds).
const PYTHON_TIMEOUT: Duration = Duration::from_secs(20);
/// How long a binary may take to print its version.
const VERSION_TIMEOUT: Duration = Duration::from_secs(5);

/// The probe the child interpreter runs: one JSON object of what it could import.
const PYTHON_PROBE: &str = r#"
import json, importlib
found = {}
def probe(name, fn):
    try:
        found[name] = fn(importlib.import_module(name))
    except Exception:
        pass
def torch_info(t):
    builds = []
    if getattr(t.version, "cuda", None): builds.append("cuda " + t.version.cuda)
    if getattr(t.version, "hip", None): builds.append("rocm " + t.version.hip)
    mps = getattr(getattr(t, "backends", None), "mps", None)
    if mps is not None and mps.is_built(): builds.append("mps")
    if getattr(t, "xpu", None) is not None and t.xpu.is_available(): builds.append("xpu")
    builds.append("cpu")
    return {"version": t.__version__, "builds": builds}
probe("torch", torch_info)
probe("onnxruntime", lambda m: {"version": m.__version__, "builds": list(m.get_available_providers())})
probe("openvino", lambda m: {"version": getattr(m, "__version__", "") or m.get_version(), "builds": []})
probe("mlx.core", lambda m: {"version": getattr(m, "__version__", ""), "builds": ["mps"]})
print(json.dumps(found))
"#;

/// The Python interpreters to ask, first found first: `explicit`, `$VIRTUAL_ENV`, `$CONDA_PREFIX`,
/// then `python3` on `PATH`.
#[must_use]
pub fn interpreters(explicit: Option<&Path>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = explicit.map(Path::to_path_buf).into_iter().collect();
    for var in ["VIRTUAL_ENV", "CONDA_PREFIX"] {
        if let Some(root) = std::env::var_os(var) {
            out.push(PathBuf::from(root).join("bin").join("python"));
        }
    }
    out.extend(on_path("python3"));
    out.dedup();
    out
}

/// `name` in a `PATH` directory, if it is there.
fn on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

/// The first of `candidates` in which every module of `modules` imports (each asked with a time
/// limit, as importing torch takes seconds).
#[must_use]
pub fn python_with(candidates: &[PathBuf], modules: &[&str]) -> Option<PathBuf> {
    let script = format!("import {}", modules.join(", "));
    candidates.iter().find_map(|python| {
        let mut command = Command::new(python);
        command.args(["-c", &script]);
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let started = Instant::now();
        loop {
            match child.try_wait() {
                Ok(Some(status)) => return status.success().then(|| python.clone()),
                Ok(None) if started.elapsed() < PYTHON_TIMEOUT => std::thread::sleep(Duration::from_millis(20)),
                _ => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return None;
                }
            }
        }
    })
}

/// Runs `command` with a time limit; its stdout and stderr when it exits in time.
fn run_with_limit(mut command: Command, limit: Duration) -> Option<(String, String)> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() < limit => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let output = child.wait_with_output().ok()?;
    Some((
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    ))
}

/// The runtimes a probe's JSON names (unknown keys ignored).
#[must_use]
pub fn parse_python_probe(json: &str, interpreter: &Path) -> Vec<InstalledRuntime> {
    let Ok(serde_json::Value::Object(found)) = serde_json::from_str(json.trim()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, runtime) in [
        ("torch", Runtime::Pytorch),
        ("onnxruntime", Runtime::OnnxRuntime),
        ("openvino", Runtime::OpenVino),
        ("mlx.core", Runtime::Mlx),
    ] {
        let Some(info) = found.get(key) else { continue };
        let version = info["version"].as_str().unwrap_or_default().to_owned();
        let builds = info["builds"]
            .as_array()
            .map(|b| b.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
            .unwrap_or_default();
        out.push(InstalledRuntime {
            runtime,
            version,
            builds,
            location: interpreter.display().to_string(),
        });
    }
    out
}

/// llama.cpp's `--version` output (`version: 4567 (a1b2c3d)`, on stderr or stdout): the build.
#[must_use]
pub fn parse_llama_version(text: &str) -> Option<String> {
    text.lines()
        .find_map(|l| l.trim().strip_prefix("version:"))
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
}

/// Every framework and engine installed here; `python` picks the interpreter to ask first.
#[must_use]
pub fn detect(python: Option<&Path>) -> Vec<InstalledRuntime> {
    let mut out = Vec::new();
    for interpreter in interpreters(python) {
        let mut command = Command::new(&interpreter);
        command.args(["-c", PYTHON_PROBE]);
        if let Some((stdout, _)) = run_with_limit(command, PYTHON_TIMEOUT) {
            out = parse_python_probe(&stdout, &interpreter);
            if !out.is_empty() {
                break;
            }
        }
    }
    for binary in ["llama-cli", "llama-server", "llama-bench"] {
        let Some(path) = on_path(binary) else { continue };
        let mut command = Command::new(&path);
        command.arg("--version");
        if let Some(version) =
            run_with_limit(command, VERSION_TIMEOUT).and_then(|(o, e)| parse_llama_version(&format!("{o}\n{e}")))
        {
            out.push(InstalledRuntime {
                runtime: Runtime::LlamaCpp,
                version,
                builds: Vec::new(),
                location: path.display().to_string(),
            });
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first interpreter in which the modules import is taken; none when no interpreter has them.
    #[test]
    fn a_python_with_the_modules_is_found() {
        let Some(python3) = on_path("python3") else { return };
        let candidates = [PathBuf::from("/nonexistent/python"), python3.clone()];
        assert_eq!(python_with(&candidates, &["json", "csv"]), Some(python3.clone()));
        assert_eq!(python_with(&candidates, &["no_such_module_hwfit"]), None);
        assert_eq!(python_with(&[], &["json"]), None);
    }

    #[test]
    fn a_probe_names_each_framework_with_its_builds() {
        let json = r#"{"torch": {"version": "2.11.0+cu128", "builds": ["cuda 12.8", "cpu"]},
                       "onnxruntime": {"version": "1.32.0", "builds": ["CUDAExecutionProvider", "CPUExecutionProvider"]},
                       "something": {"version": "1"}}"#;
        let found = parse_python_probe(json, Path::new("/venv/bin/python"));
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].runtime, Runtime::Pytorch);
        assert_eq!(found[0].builds, ["cuda 12.8", "cpu"]);
        assert_eq!(found[1].runtime, Runtime::OnnxRuntime);
        assert_eq!(found[1].location, "/venv/bin/python");
        assert!(parse_python_probe("not json", Path::new("python3")).is_empty());
    }

    #[test]
    fn llama_cpp_versions_are_read_from_either_stream() {
        let text = "ggml_cuda_init: found 1 CUDA devices\nversion: 4567 (a1b2c3d)\nbuilt with cc";
        assert_eq!(parse_llama_version(text).as_deref(), Some("4567 (a1b2c3d)"));
        assert_eq!(parse_llama_version("usage: llama-cli"), None);
    }

    #[cfg(unix)]
    #[test]
    fn an_interpreter_is_asked_in_a_child_process_within_a_time_limit() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let fake = dir.path().join("python");
        std::fs::write(
            &fake,
            "#!/bin/sh\necho '{\"torch\": {\"version\": \"2.5.1\", \"builds\": [\"rocm 6.2\", \"cpu\"]}}'\n",
        )
        .unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let found = detect(Some(&fake));
        let torch = found.iter().find(|r| r.runtime == Runtime::Pytorch).unwrap();
        assert_eq!(
            (torch.version.as_str(), torch.builds[0].as_str()),
            ("2.5.1", "rocm 6.2")
        );
        // A child that does not answer in time is stopped, not waited for.
        let slow = dir.path().join("slow");
        std::fs::write(&slow, "#!/bin/sh\nsleep 30\n").unwrap();
        std::fs::set_permissions(&slow, std::fs::Permissions::from_mode(0o755)).unwrap();
        let started = Instant::now();
        assert!(run_with_limit(Command::new(&slow), Duration::from_millis(200)).is_none());
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
