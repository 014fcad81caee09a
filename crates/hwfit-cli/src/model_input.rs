//! Gathers request inputs from flags and files: the model (name and/or `config.json`), the
//! hardware and devices named, the knowledge with a selection config.

use std::mem::ManuallyDrop;
use std::path::Path;

use anyhow::{Context, Result};
use hwfit_core::api::HardwareList;
use hwfit_core::browser::BrowserCapabilities;
use hwfit_core::{DeviceSpec, Hwfit, SelectionConfig};

use crate::cli::{ModelArg, TargetArgs};

/// Reads a file the user named and parses it with `parse`; errors say which file, and as what.
pub fn parse_file<T, E>(path: &Path, what: &str, parse: impl FnOnce(&str) -> Result<T, E>) -> Result<T>
where
    E: std::error::Error + Send + Sync + 'static,
{
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {what} {}", path.display()))?;
    parse(&text).with_context(|| format!("{} is not a valid {what}", path.display()))
}

/// Reads a `config.json` the user named.
fn read_config(path: &Path) -> Result<serde_json::Value> {
    parse_file(path, "model config", hwfit_core::parse_config_text)
}

/// Whether `name` names a JSON file rather than a model: an existing file ending in `.json`.
fn is_config_file(name: &str) -> bool {
    let path = Path::new(name);
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")) && path.is_file()
}

/// The model's name (positional or `--model`; empty when only a config is given) and its
/// `config.json` as JSON. A MODEL that is a `.json` file is read as `--model-config` and named as
/// [`config_model_name`] names it.
pub fn model(arg: &ModelArg) -> Result<(String, Option<serde_json::Value>)> {
    let name = arg.model.clone().or_else(|| arg.model_flag.clone()).unwrap_or_default();
    if arg.model_config.is_none() && is_config_file(&name) {
        let path = Path::new(&name);
        let config = read_config(path)?;
        return Ok((config_model_name(path, &config), Some(config)));
    }
    let config = arg.model_config.as_deref().map(read_config).transpose()?;
    Ok((name, config))
}

/// The model a config file describes: the id its file name writes as `owner__name` (the
/// catalog's and the Hub cache's way of writing an id in a file name: `Qwen__Qwen3-8B.json`, or a
/// folder so named holding `config.json`), else its `_name_or_path` (which a fine-tuned model's
/// config often leaves as the base model's), else the file's stem — as the Python runner names it.
pub fn config_model_name(path: &Path, config: &serde_json::Value) -> String {
    let from_path = name_from_path(path);
    if from_path.contains('/') {
        return from_path;
    }
    config
        .get("_name_or_path")
        .and_then(serde_json::Value::as_str)
        .filter(|s| !s.is_empty())
        .map_or(from_path, str::to_string)
}

/// A config file's model name from its path alone (see [`config_model_name`]).
fn name_from_path(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let stem = if stem == "config" || stem.is_empty() {
        path.canonicalize()
            .ok()
            .and_then(|p| {
                p.parent()
                    .and_then(Path::file_name)
                    .map(|n| n.to_string_lossy().into_owned())
            })
            .unwrap_or(stem)
    } else {
        stem
    };
    stem.replacen("__", "/", 1)
}

/// What `--hardware`/`--device` (each comma-separated or repeated), `--device-spec` and `--browser`
/// name.
type NamedTargets = (
    HardwareList,
    Vec<String>,
    Option<DeviceSpec>,
    Option<BrowserCapabilities>,
);

/// The hardware list, devices, device spec and browser a command names.
pub fn targets(args: &TargetArgs) -> Result<NamedTargets> {
    let hardware = if args.hardware.is_empty() {
        HardwareList::default()
    } else {
        HardwareList::parse(&args.hardware.join(","))?
    };
    let devices = args
        .devices
        .iter()
        .flat_map(|d| d.split(','))
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(String::from)
        .collect();
    let spec = args.device_spec.as_deref().map(device_spec).transpose()?;
    let browser = args.browser.as_deref().map(browser).transpose()?;
    Ok((hardware, devices, spec, browser))
}

/// `--browser`: the facts in words, the probe's `capabilities` object, or a file holding it; read
/// by the core, as a request's `browser` is.
fn browser(value: &str) -> Result<BrowserCapabilities> {
    let trimmed = value.trim_start();
    let json = if trimmed.starts_with('{') {
        serde_json::from_str(trimmed).context("--browser: not a JSON object")?
    } else if std::path::Path::new(value).is_file() {
        let text = std::fs::read_to_string(value).with_context(|| format!("--browser: cannot read {value}"))?;
        serde_json::from_str(&text).with_context(|| format!("--browser {value}: not JSON"))?
    } else {
        serde_json::Value::String(value.to_owned())
    };
    let caps =
        hwfit_core::browser::describe::deserialize_browser(json).map_err(|e| anyhow::anyhow!("--browser: {e}"))?;
    caps.context("--browser: empty")
}

/// `--device-spec`: a JSON object, or a file holding one; validated field by field.
fn device_spec(value: &str) -> Result<DeviceSpec> {
    let (text, what) = if value.trim_start().starts_with('{') {
        (value.to_owned(), String::from("--device-spec"))
    } else {
        let text = std::fs::read_to_string(value).with_context(|| format!("--device-spec: cannot read {value}"))?;
        (text, format!("--device-spec {value}"))
    };
    let spec: DeviceSpec = serde_json::from_str(&text).with_context(|| format!("{what}: not a device spec"))?;
    spec.to_device().with_context(|| format!("{what}: invalid"))?;
    Ok(spec)
}

/// hwfit's knowledge (the device database included), with the selection config of `path` when given.
/// Never dropped: a command ends with the process, and freeing the ~2,000 devices and their index
/// one by one took ~2 ms of a ~25 ms CLI answer (`hwfit serve` takes it out to keep it).
pub fn hwfit(config: Option<&Path>) -> Result<ManuallyDrop<Hwfit>> {
    let hwfit = crate::predictor::install(Hwfit::bundled()?)?;
    Ok(ManuallyDrop::new(match config {
        None => hwfit,
        Some(path) => hwfit.with_selection_config(parse_file(path, "selection config", SelectionConfig::from_json)?),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_file_names_its_model_as_the_python_runner_does() {
        assert_eq!(
            name_from_path(Path::new("configs/Qwen__Qwen2.5-0.5B-Instruct.json")),
            "Qwen/Qwen2.5-0.5B-Instruct"
        );
        assert_eq!(name_from_path(Path::new("fixtures/gpt2.json")), "gpt2");
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("distilbert__distilbert-base-uncased");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("config.json"), "{}").unwrap();
        assert_eq!(
            name_from_path(&folder.join("config.json")),
            "distilbert/distilbert-base-uncased"
        );
        // The id a file name writes wins over `_name_or_path`, which may name the base model.
        let config = serde_json::json!({"_name_or_path": "nreimers/MiniLM-L6-H384-uncased"});
        assert_eq!(
            config_model_name(Path::new("sentence-transformers__all-MiniLM-L6-v2.json"), &config),
            "sentence-transformers/all-MiniLM-L6-v2"
        );
        assert_eq!(
            config_model_name(Path::new("config.json"), &config),
            "nreimers/MiniLM-L6-H384-uncased"
        );
        assert_eq!(
            config_model_name(Path::new("gpt2.json"), &serde_json::json!({})),
            "gpt2"
        );
    }
}
