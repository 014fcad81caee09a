// Rendering hwfit's answers into the page: DOM built from values (no HTML strings from answers,
// except the charts' SVG, which hwfit's chart module writes with every text escaped).

/** An element: `h("p", {class: "x"}, "text", child…)`. */
export function h(tag, attributes = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("data-") || key === "class" || key === "role" || key.startsWith("aria-") || key === "scope") {
      el.setAttribute(key, String(value));
    } else {
      el[key] = value;
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** `el`'s children replaced by the given nodes, absent ones (null, undefined, false) skipped. */
function replace(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

/** 3 significant figures, thousands separated. */
export function number(v) {
  if (v === null || v === undefined || !Number.isFinite(v)) return "–";
  const a = Math.abs(v);
  const digits = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
  return v.toLocaleString("en-US", { maximumFractionDigits: digits });
}

function bytes(n) {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i += 1;
  }
  return `${number(n)} ${units[i]}`;
}

function megabytes(mb) {
  return mb >= 1024 ? `${number(mb / 1024)} GB` : `${number(mb)} MB`;
}

function yesNo(v) {
  return h("span", { class: v ? "yes" : "no" }, v ? "yes" : "no");
}

function facts(rows) {
  return h("dl", {}, rows.filter(Boolean).flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
}

const LIMITS = ["maxBufferSize", "maxStorageBufferBindingSize", "maxComputeWorkgroupStorageSize", "maxComputeInvocationsPerWorkgroup"];

/** The capability panel: the identified GPU, WebGPU, WebNN, WebAssembly and the navigator. */
export function capabilities(gpuEl, webgpuEl, webnnEl, wasmEl, caps) {
  const gpu = caps.gpu;
  const identified = gpu.deviceName && gpu.confidence !== "class";
  replace(gpuEl,
    h("h3", {}, "GPU"),
    h("p", { class: "big", "data-confidence": gpu.confidence },
      identified ? gpu.deviceName : `Not identified: predicted on the class ${caps.deviceClasses.webgpu ?? "(no WebGPU)"}`,
      " ", h("span", { class: `badge ${gpu.confidence}` }, gpu.confidence)),
    gpu.candidates?.length ? h("p", {}, `Could be: ${gpu.candidates.join(", ")}`) : null,
    h("details", {}, h("summary", {}, "Why"), h("ul", {}, gpu.evidence.map((e) => h("li", {}, e)))),
    facts([
      ["WebGL renderer", caps.webgl.unmaskedRenderer || caps.webgl.renderer || caps.webgl.reason || "–"],
      ["Predicted on", Object.entries(caps.devices).map(([k, v]) => `${k}: ${v}`).join("; ")],
    ]),
    h("p", {}, "Ask about this browser from the CLI, HTTP or Python (same answers): ",
      h("code", { class: "mono", "data-browser": caps.browser }, `hwfit predict MODEL --browser '${caps.browser}'`)),
  );
  const webgpu = caps.webgpu;
  replace(webgpuEl,
    h("h3", {}, "WebGPU"),
    webgpu.available
      ? h("div", {}, webgpu.adapters.filter((a) => a.available).map((a) => h("div", { class: "adapter", "data-fallback": a.isFallbackAdapter },
          h("p", {}, h("strong", {}, a.powerPreference), ": ", [a.vendor, a.architecture, a.description].filter(Boolean).join(" · ") || "no adapter info",
            a.isFallbackAdapter ? h("span", { class: "badge software" }, "fallback adapter (software)") : null),
          h("details", {}, h("summary", {}, `${a.features.length} features`), h("p", { class: "mono" }, a.features.join(", ") || "none")),
          facts(LIMITS.filter((l) => l in a.limits).map((l) => [l, l.endsWith("Size") ? bytes(a.limits[l]) : number(a.limits[l])])))))
      : h("p", { class: "unavailable" }, `WebGPU is unavailable: ${webgpu.reason}`),
  );
  const webnn = caps.webnn;
  replace(webnnEl,
    h("h3", {}, "WebNN"),
    webnn.available || webnn.contexts.length
      ? h("ul", {}, webnn.contexts.map((c) => h("li", { "data-device-type": c.deviceType },
          h("strong", {}, c.deviceType), ": ", c.available ? "context created" : `no context (${c.error})`)))
      : h("p", { class: "unavailable" }, `WebNN is unavailable: ${webnn.reason}`),
  );
  const nav = caps.navigator;
  replace(wasmEl,
    h("h3", {}, "WebAssembly and the CPU"),
    facts([
      ["SIMD", yesNo(caps.wasm.simd)],
      ["Threads", yesNo(caps.wasm.threads)],
      ["Cross-origin isolated", yesNo(caps.wasm.crossOriginIsolated)],
      ["SharedArrayBuffer", yesNo(caps.wasm.sharedArrayBuffer)],
      ["Logical cores", number(nav.hardwareConcurrency)],
      nav.deviceMemoryGb ? ["Device memory", `≥ ${nav.deviceMemoryGb} GB`] : null,
    ]),
  );
}

/** The recommendation and every candidate's prediction. */
export function answer(answerEl, table, selection, prediction) {
  const source = prediction.modelSource;
  const sourceText = source.kind === "catalog" ? "architecture from hwfit's catalog"
    : source.kind === "hf_config" ? "architecture from the config.json"
    : `a name-based estimate: ${source.basis}`;
  const primary = selection.primaryRecommendation;
  replace(answerEl,
    h("p", { class: "model" }, h("strong", {}, selection.modelName), ` — ${selection.modelFamily}, ${selection.modelSizeCategory}, at `,
      h("span", { class: "precision" }, prediction.precision), ", ",
      h("span", { class: "model-source", "data-kind": source.kind }, sourceText)),
    h("p", { class: "big" }, "Run it on ", h("strong", { id: "primary", "data-hardware": primary ?? "" }, primary ?? "nothing that fits"),
      selection.fallbackOptions.length ? h("span", { class: "fallbacks" }, ` — then ${selection.fallbackOptions.join(", ")}`) : null),
    h("p", { id: "explanation" }, selection.explanation),
  );
  const body = table.tBodies[0];
  body.replaceChildren(...Object.entries(prediction.predictions).map(([key, e]) => {
    const share = e.memoryCapacity > 0 ? Math.min(1, e.memoryUsage / e.memoryCapacity) : 0;
    return h("tr", { "data-key": key, "data-throughput": e.throughput, "data-latency": e.latency, "data-source": e.source,
        class: key === primary ? "primary" : "" },
      h("th", { scope: "row" }, key),
      h("td", {}, e.device),
      h("td", { class: "num" }, `${number(e.throughput)} ${e.throughputUnit}`),
      h("td", { class: "num" }, `${number(e.latency)} ms`),
      h("td", {}, h("span", { class: "num" }, `${megabytes(e.memoryUsage)} of ${megabytes(e.memoryCapacity)}`),
        h("meter", { min: 0, max: 1, value: share, high: 0.8, optimum: 0, "aria-label": `memory share on ${key}` })),
      h("td", {}, h("code", {}, e.source)));
  }));
  table.hidden = false;
}

/** The measurement and the predictions before and after it. */
export function measured(el, report, before, after) {
  const rows = Object.keys(after.predictions).map((key) => {
    const b = before.predictions[key];
    const a = after.predictions[key];
    return h("tr", { "data-key": key, "data-source-before": b?.source, "data-source-after": a.source },
      h("th", { scope: "row" }, key),
      h("td", { class: "num" }, `${number(b?.throughput)} → ${number(a.throughput)} ${a.throughputUnit}`),
      h("td", {}, h("code", {}, b?.source ?? "–"), " → ", h("code", {}, a.source)));
  });
  replace(el,
    h("h3", {}, "Measured here"),
    facts([
      report.gpu ? ["WebGPU (WGSL matmul, copy)", `${number(report.gpu.matmulF32Gflops)} GFLOP/s, ${number(report.gpu.copyGbs)} GB/s`] : ["WebGPU", report.gpuError ?? "not measured"],
      report.cpu ? ["WebAssembly (one thread)", `${number(report.cpu.matmulF32Gflops)} GFLOP/s, ${number(report.cpu.copyGbs)} GB/s`] : null,
    ]),
    h("div", { class: "table-wrap" }, h("table", { id: "before-after" },
      h("caption", {}, "Predictions before → after the measurement"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Back-end"), h("th", { scope: "col" }, "Throughput"), h("th", { scope: "col" }, "Source"))),
      h("tbody", {}, rows))),
  );
  el.hidden = false;
}

/** The charts' SVG (written by hwfit's chart module, its text escaped there). */
export function charts(list, drawn) {
  list.replaceChildren(...drawn.map((c) => {
    const figure = h("figure", { class: "chart", "data-kind": c.kind });
    figure.innerHTML = c.svg;
    figure.append(h("figcaption", {}, c.title));
    return figure;
  }));
}
