// hwfit's devtools demo: probes this browser, asks hwfit which back-end a model should run on and
// how fast, how big, draws the charts, and measures on request. Every number comes from the package
// (`window.hwfit`); this file only gathers inputs and renders answers.
import init, * as hwfit from "../pkg/hwfit.js";
import { capabilities, answer, measured, charts, number } from "./render.js";

const $ = (id) => document.getElementById(id);
const state = { config: null, configName: null, calibration: null };

function status(text, stateName) {
  const el = $("status");
  el.textContent = text;
  if (stateName) el.dataset.state = stateName;
}

function showError(e) {
  const el = $("error");
  el.textContent = `${e?.name ?? "Error"}: ${e?.message ?? e}`;
  el.hidden = false;
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

/** A whole number from a field, or a RangeError naming it. */
function integer(id, what) {
  const value = Number($(id).value);
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${what} must be a whole number ≥ 1, not "${$(id).value}"`);
  return value;
}

/** The select/predict request the form describes. */
function request() {
  const name = $("model-name").value.trim();
  if (!name && !state.config) throw new TypeError("name a model, or drop a config.json");
  const r = {
    modelName: name || state.configName,
    batchSize: integer("batch-size", "batch size"),
    mode: $("mode").value,
  };
  // Left on "the checkpoint's": the core's default (an FP8, AWQ or MXFP4 checkpoint's own format, else fp32).
  if ($("precision").value) r.precision = $("precision").value;
  // Left empty: the core's default (128 tokens, at most the model's positions).
  if ($("sequence-length").value.trim() !== "") r.sequenceLength = integer("sequence-length", "sequence length");
  if (state.config) {
    r.modelConfig = state.config;
    r.modelName = state.configName;
  }
  return r;
}

function options() {
  return state.calibration ? { calibration: state.calibration } : undefined;
}

/** Asks select (the recommendation) and predict (every candidate, with the workload) and renders. */
async function recommend() {
  clearError();
  let base;
  try {
    base = request();
  } catch (e) {
    showError(e);
    return false;
  }
  const predictRequest = { ...base };
  if ($("workload").value) predictRequest.workload = $("workload").value;
  try {
    const [selection, prediction] = await Promise.all([
      hwfit.select(base, options()),
      hwfit.predict(predictRequest, options()),
    ]);
    answer($("answer"), $("candidates"), selection, prediction);
    drawCharts(base);
    return true;
  } catch (e) {
    showError(e);
    return false;
  }
}

/** The three charts of this model on this device's back-ends. */
async function drawCharts(base) {
  const list = $("chart-list");
  if (state.config) {
    list.innerHTML = "";
    const p = document.createElement("p");
    p.className = "note";
    p.textContent = "Charts draw catalog or named models; a dropped config.json is predicted above only.";
    list.append(p);
    return;
  }
  const precisions = [...new Set([base.precision ?? "fp32", "fp32", "fp16", "int8"])];
  try {
    const drawn = await hwfit.charts({
      models: [base.modelName],
      batchSizes: [1, 2, 4, 8, 16, 32, 64, 128],
      precisions,
      ...(base.sequenceLength === undefined ? {} : { sequenceLength: base.sequenceLength }),
      mode: base.mode,
    }, options());
    charts(list, drawn.charts.filter((c) => ["batch_scaling", "memory", "precision_impact"].includes(c.kind)));
  } catch (e) {
    list.textContent = `No charts: ${e.message}`;
  }
}

async function readConfig(file) {
  clearError();
  try {
    const text = await file.text();
    const config = hwfit.parseConfig(text);
    if (typeof config !== "object" || config === null || Array.isArray(config)) throw new TypeError("config.json must hold a JSON object");
    // The core reads it as every face does: its model type (Kokoro's config names none), how it
    // was read, and its size; a config it cannot read is refused here, naming what is wrong.
    const read = hwfit.model({ modelName: "", modelConfig: config });
    state.config = config;
    state.configName = config._name_or_path || file.name.replace(/\.json$/, "") || "config.json";
    const p = read.parameters;
    const size = p >= 1e9 ? `${(p / 1e9).toFixed(2)} B` : `${(p / 1e6).toFixed(1)} M`;
    $("config-status").textContent = `Using ${file.name}: ${read.source.modelType ?? read.source.kind}, ${size} parameters` +
      (config.architectures ? ` (${config.architectures.join(", ")})` : "") +
      (read.checkpoint ? `, stored as ${read.checkpoint.precision ?? "a format hwfit does not model"} (${read.checkpoint.statedBy})` : "") +
      (read.source.note ? ` — ${read.source.note}` : "");
    $("clear-config").hidden = false;
    $("drop-zone").dataset.loaded = "true";
    await recommend();
  } catch (e) {
    state.config = null;
    showError(new TypeError(`${file.name} is not a usable config.json: ${e.message}`));
  }
}

async function measure() {
  const button = $("measure");
  button.disabled = true;
  $("measure-progress").hidden = false;
  const started = performance.now();
  const tick = setInterval(() => status(`Measuring this device… ${((performance.now() - started) / 1000).toFixed(1)} s`), 200);
  try {
    const base = request();
    const before = await hwfit.predict(base);
    const report = await hwfit.benchmark();
    const after = await hwfit.predict(base, { calibration: report });
    state.calibration = report;
    measured($("measured"), report, before, after);
    await recommend();
    status(`Measured in ${((performance.now() - started) / 1000).toFixed(1)} s; predictions now use the measured rates.`, "measured");
  } catch (e) {
    showError(e);
    status("Measurement failed.", "ready");
  } finally {
    clearInterval(tick);
    $("measure-progress").hidden = true;
    button.disabled = false;
  }
}

function wire() {
  $("model-form").addEventListener("submit", (event) => {
    event.preventDefault();
    recommend();
  });
  $("measure").addEventListener("click", measure);
  $("config-file").addEventListener("change", (event) => {
    const file = event.target.files?.[0];
    if (file) readConfig(file);
  });
  const zone = $("drop-zone");
  zone.addEventListener("dragover", (event) => {
    event.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    const file = event.dataTransfer?.files?.[0];
    if (file) readConfig(file);
  });
  $("clear-config").addEventListener("click", () => {
    state.config = null;
    state.configName = null;
    $("config-file").value = "";
    $("config-status").textContent = "";
    $("clear-config").hidden = true;
    delete $("drop-zone").dataset.loaded;
    recommend();
  });
}

async function main() {
  const start = performance.now();
  await init();
  const ready = performance.now();
  window.hwfit = hwfit;
  wire();
  status("Probing this device…");
  // probe() loads the device database itself, while the browser answers its WebGPU/WebNN calls.
  const caps = await hwfit.probe();
  const probed = performance.now();
  capabilities($("gpu"), $("webgpu"), $("webnn"), $("wasm"), caps);
  const ok = await recommend();
  const first = performance.now();
  window.hwfitTimings = {
    initMs: ready - start,
    probeMs: probed - ready,
    answerMs: first - probed,
    firstRecommendationMs: first - ready,
    sinceNavigationMs: first,
    ok,
  };
  $("timings").textContent = `init() ${number(ready - start)} ms; probe (with the device database) ${number(probed - ready)} ms; ` +
    `first recommendation ${number(first - probed)} ms later (${number(first - ready)} ms after init()).`;
  status(ok ? "Ready." : "Ready (the first question failed: see the message).", "ready");
  const catalog = $("catalog");
  for (const m of hwfit.models()) {
    const option = document.createElement("option");
    option.value = m.name;
    catalog.append(option);
  }
}

main().catch((e) => {
  showError(e);
  status("hwfit could not start.", "failed");
});
