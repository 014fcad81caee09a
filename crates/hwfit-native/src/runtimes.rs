//! OpenVINO and Qualcomm QNN: whether their runtime libraries are installed (the usual install
//! paths and `LD_LIBRARY_PATH`), and the version where the file name or install tree says it.

use std::path::{Path, PathBuf};

pub use hwfit_core::detect::RuntimeReport;

/// Which runtime.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runtime {
    /// Intel OpenVINO (`libopenvino.so*`).
    OpenVino,
    /// Qualcomm AI Engine Direct (`libQnnHtp.so`, `libQnnCpu.so`).
    Qnn,
}

impl Runtime {
    fn library_prefixes(self) -> &'static [&'static str] {
        match self {
            Self::OpenVino => &["libopenvino.so", "libopenvino.dylib", "openvino.dll"],
            Self::Qnn => &["libQnnHtp.so", "libQnnCpu.so", "QnnHtp.dll", "QnnCpu.dll"],
        }
    }

    fn usual_dirs(self) -> Vec<PathBuf> {
        let mut dirs: Vec<PathBuf> = [
            "/usr/lib",
            "/usr/lib64",
            "/usr/local/lib",
            "/usr/lib/x86_64-linux-gnu",
            "/usr/lib/aarch64-linux-gnu",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        let (env_root, roots): (&str, &[&str]) = match self {
            Self::OpenVino => (
                "INTEL_OPENVINO_DIR",
                &[
                    "/opt/intel/openvino/runtime/lib/intel64",
                    "/opt/intel/openvino/runtime/lib/aarch64",
                ],
            ),
            Self::Qnn => (
                "QNN_SDK_ROOT",
                &[
                    "/opt/qcom/aistack/qnn/lib/x86_64-linux-clang",
                    "/opt/qcom/aistack/qnn/lib/aarch64-oe-linux-gcc11.2",
                ],
            ),
        };
        dirs.extend(roots.iter().map(PathBuf::from));
        if let Some(root) = std::env::var_os(env_root) {
            let root = PathBuf::from(root);
            dirs.extend(
                [
                    "runtime/lib/intel64",
                    "runtime/lib/aarch64",
                    "lib/x86_64-linux-clang",
                    "lib/aarch64-oe-linux-gcc11.2",
                    "lib",
                ]
                .iter()
                .map(|s| root.join(s)),
            );
        }
        dirs
    }
}

/// Looks for `runtime` in `LD_LIBRARY_PATH` and the usual places.
#[must_use]
pub fn detect(runtime: Runtime) -> RuntimeReport {
    let mut dirs: Vec<PathBuf> = std::env::var_os("LD_LIBRARY_PATH")
        .map(|v| std::env::split_paths(&v).collect())
        .unwrap_or_default();
    dirs.extend(runtime.usual_dirs());
    detect_in(runtime, &dirs)
}

/// Looks for `runtime` in `dirs`.
#[must_use]
pub fn detect_in(runtime: Runtime, dirs: &[PathBuf]) -> RuntimeReport {
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut names: Vec<String> = entries
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        // Prefer the longest (most versioned) name: libopenvino.so.2024.4.0 over libopenvino.so.
        let found = runtime.library_prefixes().iter().find_map(|p| {
            names
                .iter()
                .filter(|n| n.starts_with(p))
                .max_by_key(|n| n.len())
                .map(|n| (p, n))
        });
        if let Some((prefix, name)) = found {
            let from_name = name
                .strip_prefix(prefix)
                .and_then(|v| v.strip_prefix('.'))
                .filter(|v| !v.is_empty());
            return RuntimeReport {
                available: true,
                library: Some(dir.join(name).display().to_string()),
                version: from_name.map(str::to_owned).or_else(|| version_file(dir)),
                searched: Vec::new(),
            };
        }
    }
    RuntimeReport {
        available: false,
        library: None,
        version: None,
        searched: dirs.iter().map(|d| d.display().to_string()).collect(),
    }
}

/// A QNN SDK's `sdk.yaml` (`version: 2.28.0…`) two levels above the library directory.
fn version_file(dir: &Path) -> Option<String> {
    let sdk = dir.parent()?.parent()?.join("sdk.yaml");
    let text = std::fs::read_to_string(sdk).ok()?;
    text.lines()
        .find_map(|l| l.trim().strip_prefix("version:"))
        .map(|v| v.trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_versioned_library_and_reports_the_version() {
        let dir = tempfile::tempdir().unwrap();
        for f in ["libopenvino.so", "libopenvino.so.2024.4.0", "libopenvino_c.so"] {
            std::fs::write(dir.path().join(f), b"").unwrap();
        }
        let r = detect_in(
            Runtime::OpenVino,
            &[PathBuf::from("/nonexistent"), dir.path().to_owned()],
        );
        assert!(r.available);
        assert_eq!(r.version.as_deref(), Some("2024.4.0"));
        assert!(r.library.unwrap().ends_with("libopenvino.so.2024.4.0"));
    }

    #[test]
    fn qnn_version_comes_from_the_sdk_yaml() {
        let root = tempfile::tempdir().unwrap();
        let lib = root.path().join("lib/x86_64-linux-clang");
        std::fs::create_dir_all(&lib).unwrap();
        std::fs::write(lib.join("libQnnHtp.so"), b"").unwrap();
        std::fs::write(root.path().join("sdk.yaml"), "name: qnn\nversion: 2.28.0.241029\n").unwrap();
        let r = detect_in(Runtime::Qnn, &[lib]);
        assert!(r.available);
        assert_eq!(r.version.as_deref(), Some("2.28.0.241029"));
    }

    #[test]
    fn absence_lists_where_it_looked() {
        let dir = tempfile::tempdir().unwrap();
        let r = detect_in(Runtime::Qnn, &[dir.path().to_owned()]);
        assert!(!r.available && r.library.is_none());
        assert_eq!(r.searched.len(), 1);
    }
}
