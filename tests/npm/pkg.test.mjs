// The packed npm package, installed into a throwaway project and used from there (node:test).
// Run by scripts/test-npm; imports `hwfit` exactly as an app would.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import * as hwfit from "hwfit";

const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve("hwfit/package.json"));
hwfit.initSync({ module: readFileSync(join(pkgDir, "hwfit_bg.wasm")) });

test("version and catalogs", () => {
  const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  assert.equal(pkg.name, "hwfit");
  assert.equal(hwfit.version(), pkg.version);
  const models = hwfit.models();
  assert.ok(models.length >= 90);
  assert.ok(models.every((m) => m.parameters > 0 && typeof m.maxPositions === "number"));
  const devices = hwfit.devices();
  assert.ok(devices.length >= 70);
  assert.ok(devices.every((d) => d.source && d.denseTflops.fp32 > 0 && "memoryBandwidthGbs" in d));
});

test("the device database loads on first use, from the package's own module", async () => {
  assert.equal(hwfit.devices({ query: "rtx 3080 ti" }).length, 0, "curated only before loading");
  const p = await hwfit.predict({ modelName: "bert-base-uncased", devices: ["rtx 3080 ti"] });
  assert.deepEqual(Object.keys(p.predictions), ["nvidia-geforce-rtx-3080-ti"]);
  assert.equal(p.predictions["nvidia-geforce-rtx-3080-ti"].device, "NVIDIA GeForce RTX 3080 Ti");
  const found = hwfit.devices({ query: "rtx 3080 ti" });
  assert.ok(found.some((d) => d.id === "nvidia-geforce-rtx-3080-ti"), JSON.stringify(found.map((d) => d.id)));
  assert.ok(hwfit.devices({ all: true }).length >= 2000);
  const { default: text } = await import("hwfit/devices.js");
  assert.ok((await hwfit.loadDeviceDatabase(text)) >= 2000);
  await assert.rejects(hwfit.loadDeviceDatabase(42), TypeError);
  await assert.rejects(hwfit.predict({ modelName: "gpt2", devices: ["M2 Ultra"] }), /ambiguous device 'M2 Ultra'/);
});

test("the learned predictor: the package's learn/ module, tract in wasm, the same answers as the reference", async () => {
  const request = { modelName: "Llama 3 8B", precision: "q4_k_m", devices: ["rtx 4090"] };
  // A prediction for named hardware loads the default model on first use.
  const first = (await hwfit.predict(request)).predictions["nvidia-rtx-4090"];
  assert.equal(first.source, "learned");
  assert.equal(first.runtime, "llama.cpp");
  assert.ok(first.analyticThroughput > 0 && first.throughput !== first.analyticThroughput);
  const info = await hwfit.loadPredictor();
  assert.ok(info.domain.cells.some(([hw, cls]) => hw === "cuda" && cls === "generate"), JSON.stringify(info.domain));
  assert.equal(info.features.length, 45);
  assert.match(info.description, /leave-devices-out/);
  // The default model's own NNEF archive, as bytes (what `hwfit train --output` writes beside the ONNX).
  const nnef = readFileSync(join(process.env.HWFIT_REPO, "crates", "hwfit-learn", "data", "default.nnef.tar"));
  await hwfit.loadPredictor(new Uint8Array(nnef));
  assert.deepEqual((await hwfit.predict(request)).predictions["nvidia-rtx-4090"], first);
  hwfit.unloadPredictor();
  const analytic = (await hwfit.predict(request)).predictions["nvidia-rtx-4090"];
  assert.equal(analytic.source, "analytic_model");
  assert.equal(analytic.throughput, first.analyticThroughput);
  await assert.rejects(hwfit.loadPredictor("model.onnx"), TypeError);
  await assert.rejects(hwfit.loadPredictor(new Uint8Array([1, 2, 3])), (e) => e instanceof Error && /NNEF/.test(e.message));
  await hwfit.loadPredictor();
});

test("a 2025 config.json dropped on the page: Qwen3, gpt-oss (mixture of experts), Gemma 3", async () => {
  const configs = join(process.env.HWFIT_REPO, "crates/hwfit-core/data/models/configs");
  const read = (file) => JSON.parse(readFileSync(join(configs, file), "utf8"));
  const qwen = hwfit.model({ modelName: "", modelConfig: read("Qwen__Qwen3-8B.json") });
  assert.equal(qwen.source.kind, "hf_config");
  assert.equal(qwen.source.modelType, "qwen3");
  assert.ok(Math.abs(qwen.parameters / 8.19e9 - 1) < 0.02, String(qwen.parameters));
  const oss = hwfit.model({ modelName: "", modelConfig: read("openai__gpt-oss-20b.json") });
  assert.ok(Math.abs(oss.parameters / 20.9e9 - 1) < 0.02, String(oss.parameters));
  assert.ok(Math.abs(oss.activeParameters / 3.6e9 - 1) < 0.05, String(oss.activeParameters));
  const gemma = await hwfit.predict({ modelName: "", modelConfig: read("google__gemma-3-1b-it.json"), devices: ["rtx 4090"], precision: "q4_k_m", workload: "decode" });
  assert.ok(Object.values(gemma.predictions)[0].throughput > 0);
});

test("parseConfig reads a config.json as hwfit does: Python's Infinity (Nemotron-H) as null", () => {
  const text = readFileSync(join(process.env.HWFIT_REPO, "crates/hwfit-core/data/models/configs/nvidia__Nemotron-H-56B-Base-8K.json"), "utf8");
  assert.throws(() => JSON.parse(text));
  const config = hwfit.parseConfig(text);
  assert.deepEqual(config.time_step_limit, [0, null]);
  const m = hwfit.model({ modelName: "", modelConfig: config });
  assert.equal(m.source.modelType, "nemotron_h");
  assert.ok(m.recurrentStateBytesFp16 > 0);
  assert.throws(() => hwfit.parseConfig("{not json"), Error);
});

test("a device described by its numbers (deviceSpec)", async () => {
  const deviceSpec = { name: "Lab Box", hardwareType: "webgpu", memoryGb: 16, memoryBandwidthGbs: 400, denseTflops: { fp32: 20 } };
  const p = await hwfit.predict({ modelName: "gpt2", deviceSpec });
  assert.ok(p.predictions["spec-lab-box"].throughput > 0);
  assert.equal(p.predictions["spec-lab-box"].hardwareType, "webgpu");
  await assert.rejects(hwfit.predict({ modelName: "gpt2", deviceSpec: { ...deviceSpec, memoryGb: -1 } }),
    (e) => e instanceof RangeError && /deviceSpec\.memoryGb/.test(e.message));
  await assert.rejects(hwfit.predict({ modelName: "gpt2", deviceSpec: { ...deviceSpec, cores: 8 } }), TypeError);
});

test("calibration: predictions on the rates benchmark() measured here", async () => {
  const report = await hwfit.benchmark({ noGpu: true });
  assert.ok(report.cpu.matmulF32Gflops > 0);
  const p = await hwfit.predict({ modelName: "bert-base-uncased" }, { calibration: report });
  assert.equal(p.predictions.wasm.source, "measured_profile");
  const q = await hwfit.select({ modelName: "bert-base-uncased" }, { calibrate: true });
  assert.equal(q.allScores.wasm.predictions.source, "measured_profile");
  await assert.rejects(hwfit.predict({ modelName: "gpt2" }, { calibrate: 1 }), TypeError);
});

test("classify and resources return camelCase objects", () => {
  const c = hwfit.classify({ modelName: "gpt2" });
  assert.equal(c.family, "text_generation");
  assert.ok(c.subfamilyConfidence >= 0 && Array.isArray(c.analyses));
  const r = hwfit.resources({ modelName: "gpt2", hardware: "cpu", batchSize: 2 });
  assert.equal(r.modelName, "openai-community/gpt2");
  assert.equal(r.modelSource.kind, "catalog");
  const need = r.resourceRequirements;
  assert.ok(need.minMemoryMb > 0 && need.recommendedMemoryMb >= need.minMemoryMb);
  assert.ok(need.breakdown.weightsMb > 400);
});

test("predict, select and matrix", async () => {
  const p = await hwfit.predict({ modelName: "Llama 3 8B", hardware: ["webgpu"], precision: "q4_k_m" });
  assert.equal(p.workload, "decode");
  assert.equal(p.sequenceLength, 128);
  const w = p.predictions.webgpu;
  assert.ok(w.throughput > 0 && w.throughputUnit === "tokens/s");
  assert.equal(w.hardwareType, "webgpu");
  assert.match(w.source, /^analytic_model/);
  const s = await hwfit.select({ modelName: "bert-base-uncased", hardware: "cpu,cuda", batchSize: 16 });
  assert.equal(s.primaryRecommendation, "cuda");
  assert.ok(s.allScores.cpu.predictions.latency > s.allScores.cuda.predictions.latency);
  const m = await hwfit.matrix({ models: ["gpt2"], hardware: ["wasm"], batchSizes: [1], precisions: ["fp32", "q4_k_m"] });
  const cells = m.models["openai-community/gpt2"].predictions.wasm["1"];
  assert.ok("q4_k_m" in cells && "fp32" in cells, JSON.stringify(Object.keys(cells)));
});

test("charts: the five charts of a matrix, from the package's charts module", async () => {
  const request = { models: ["gpt2", "bert-base-uncased"], hardware: ["cpu", "cuda", "wasm"], precisions: ["fp32", "fp16"] };
  const { matrix, charts } = await hwfit.charts(request);
  assert.deepEqual(charts.map((c) => c.kind), ["hardware_comparison", "batch_scaling", "efficiency", "memory", "precision_impact"]);
  for (const c of charts) {
    assert.match(c.svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*role="img"/);
    assert.ok(c.svg.includes(`<title id="chart-title">${c.title}</title>`), c.kind);
  }
  assert.deepEqual(matrix, await hwfit.matrix(request), "the matrix drawn is matrix()'s answer");
  const drawn = charts[0].svg.match(/data-series="cuda" data-category="gpt2" data-value="([^"]+)"/);
  assert.ok(drawn, "the cuda bar of gpt2");
  assert.equal(Number(drawn[1]), matrix.models["openai-community/gpt2"].predictions.cuda["1"].fp32.throughput);
  await assert.rejects(hwfit.charts({ models: ["no-such-model-xyz"] }), (e) => e instanceof Error && /no-such-model-xyz/.test(e.message));
  await assert.rejects(hwfit.charts({ model: "gpt2" }), TypeError);
});

test("every question of the core is an export", async () => {
  assert.equal(hwfit.model({ modelName: "gpt2" }).family, "text_generation");
  assert.ok(Object.keys(hwfit.compatibility()).length > 0);
  assert.deepEqual(hwfit.compat(), hwfit.compatibility(), "compat() is an alias");
  const b = await hwfit.batchSelect({ models: [{ name: "gpt2" }, { name: "bert-base-uncased" }], hardware: ["cpu", "cuda"] });
  assert.deepEqual(Object.keys(b).sort(), ["bert-base-uncased", "gpt2"]);
  const a = await hwfit.analyze({ modelName: "bert-base-uncased", hardware: ["cpu"], batchSizes: [1, 4] });
  assert.deepEqual(a.batchSizes, [1, 4]);
  assert.ok(a.inference.performance["4"].cpu.throughput > 0);
  const map = await hwfit.map({ hardware: ["cpu", "cuda"], batchSizes: [1] });
  assert.ok("text_generation" in map.modelFamilies, JSON.stringify(Object.keys(map)));
  assert.ok(hwfit.distributed({ modelName: "gpt2", gpuCount: 2, batchSize: 8 }).gpuCount === 2);
  assert.ok(await hwfit.resourcePool({ models: ["gpt2", "bert-base-uncased"], hardware: ["cuda"] }));
  assert.ok(await hwfit.recommend({ task: "text-classification", hardware: ["cpu"] }));
  const compatible = hwfit.compatibleModels({ models: ["gpt2", "bert-base-uncased"], hardware: "cpu" });
  assert.deepEqual(hwfit.compatible({ models: ["gpt2", "bert-base-uncased"], hardware: "cpu" }), compatible, "compatible() is an alias");
  assert.equal(typeof (await hwfit.template({ modelName: "bert-base-uncased", hardware: "cuda" })).template, "string");
  assert.ok(hwfit.devices({ hardware: "cuda" }).every((d) => d.hardwareType === "cuda"));
  assert.ok(hwfit.models({ family: "vision" }).every((m) => m.family === "vision"));
});

test("configure sets the selection config of later questions", async () => {
  const request = { modelName: "llama 2 7b", precision: "q4_0", devices: ["RTX 4090", "M2 Ultra 76-core"] };
  const before = await hwfit.select(request);
  assert.equal(before.primaryRecommendation, "nvidia-rtx-4090");
  // IPFS Accelerate's config shape (snake_case inside): only memory headroom counts.
  hwfit.configure({ selectionConfig: {
    selection_criteria: {
      inference: { latency_weight: 0, throughput_weight: 0, memory_weight: 1, compatibility_weight: 0 },
      training: { throughput_weight: 0.4, convergence_weight: 0.3, memory_weight: 0.2, compatibility_weight: 0.1 },
    },
    batch_size_thresholds: { small: 1, medium: 8, large: 32 },
    model_size_categories: { small: 100000000, medium: 1000000000, large: 10000000000 },
  } });
  assert.equal((await hwfit.select(request)).primaryRecommendation, "apple-m2-ultra-76c");
  assert.throws(() => hwfit.configure({ selectionConfig: { no_such_key: 1 } }), /selection config/);
  hwfit.configure({ selectionConfig: null });
  assert.deepEqual(await hwfit.select(request), before);
});

test("probe and select use what node offers (no WebGPU, WebAssembly with SIMD)", async () => {
  const caps = await hwfit.probe();
  assert.equal(caps.webgpu.available, false);
  assert.match(caps.webgpu.reason, /navigator\.gpu is absent/);
  assert.equal(caps.wasm.simd, true);
  assert.equal(caps.hardware.wasm, true);
  assert.equal(caps.deviceClasses.wasm, "wasm");
  const s = await hwfit.select({ modelName: "bert-base-uncased" });
  assert.deepEqual(Object.keys(s.allScores), ["wasm"]);
  // The probe's facts, in words or as the object, describe this runtime to any face.
  assert.equal(caps.capabilities.wasm, true);
  assert.equal(typeof caps.browser, "string");
  assert.deepEqual(await hwfit.select({ modelName: "bert-base-uncased", browser: caps.browser }), s);
  assert.deepEqual(await hwfit.select({ modelName: "bert-base-uncased", browser: caps.capabilities }), s);
  const firefox = await hwfit.predict({ modelName: "bert-base-uncased", browser: "firefox, webgpu=integrated, isolated, cores=8" });
  assert.deepEqual(Object.keys(firefox.predictions).sort(), ["wasm", "webgpu"]);
  await assert.rejects(hwfit.predict({ modelName: "bert-base-uncased", browser: "netscape" }), (e) => e instanceof Error && /not a browser fact/.test(e.message));
  const b = await hwfit.benchmark({ noGpu: false });
  assert.equal(b.gpu, undefined);
  assert.match(b.gpuError, /navigator\.gpu is absent/);
  assert.ok(b.cpu.matmulF32Gflops > 0 && b.cpu.copyGbs > 0);
});

test("bad input throws typed errors with messages", async () => {
  assert.throws(() => hwfit.classify({}), (e) => e instanceof Error && /modelName is required/.test(e.message));
  assert.throws(() => hwfit.classify({ model: "gpt2" }), (e) => e instanceof TypeError && /unknown field `model`/.test(e.message) && /modelName/.test(e.message));
  assert.throws(() => hwfit.classify(undefined), TypeError);
  assert.throws(() => hwfit.resources({ modelName: "gpt2", hardware: "tpu" }), TypeError);
  assert.throws(() => hwfit.resources({ modelName: "no-such-model", hardware: "cpu" }), (e) => e instanceof Error && /no-such-model/.test(e.message));
  await assert.rejects(hwfit.predict({ modelName: "gpt2", hardware: ["wasm"], batchSise: 2 }), (e) => e instanceof TypeError && /batchSise/.test(e.message));
  await assert.rejects(hwfit.predict({ modelName: "gpt2", hardware: ["wasm"], batchSize: 0 }), (e) => e instanceof RangeError && /batchSize/.test(e.message));
  await assert.rejects(hwfit.predict({ modelName: "gpt2", devices: ["RTX 9090"] }), (e) => /unknown device/.test(e.message));
  await assert.rejects(hwfit.benchmark({ powerPreference: "max" }), RangeError);
});
