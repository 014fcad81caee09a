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

test("classify and resources return camelCase objects", () => {
  const c = hwfit.classify({ modelName: "gpt2" });
  assert.equal(c.family, "text_generation");
  assert.ok(c.subfamilyConfidence >= 0 && Array.isArray(c.analyses));
  const r = hwfit.resources({ model: "gpt2", hardware: "cpu", batchSize: 2 });
  assert.equal(r.modelName, "openai-community/gpt2");
  assert.ok(r.minMemoryMb > 0 && r.recommendedMemoryMb >= r.minMemoryMb);
  assert.ok(r.breakdown.weightsMb > 400);
});

test("predict, select and matrix", async () => {
  const p = await hwfit.predict({ model: "Llama 3 8B", hardware: ["webgpu"], precision: "q4_k_m" });
  const w = p.predictions.webgpu;
  assert.ok(w.throughput > 0 && w.throughputUnit === "tokens/s");
  assert.match(w.source, /^analytic_model/);
  const s = await hwfit.select({ model: "bert-base-uncased", hardware: ["cpu", "cuda"], batchSize: 16 });
  assert.equal(s.primaryRecommendation, "cuda");
  assert.ok(s.allScores.cpu.predictions.latency > s.allScores.cuda.predictions.latency);
  const m = await hwfit.matrix({ models: ["gpt2"], hardware: ["wasm"], batchSizes: [1], precisions: ["fp32", "q4_k_m"] });
  const cells = m.models["openai-community/gpt2"].predictions.wasm["1"];
  assert.ok("q4_k_m" in cells && "fp32" in cells, JSON.stringify(Object.keys(cells)));
});

test("probe and select use what node offers (no WebGPU, WebAssembly with SIMD)", async () => {
  const caps = await hwfit.probe();
  assert.equal(caps.webgpu.available, false);
  assert.match(caps.webgpu.reason, /navigator\.gpu is absent/);
  assert.equal(caps.wasm.simd, true);
  assert.equal(caps.hardware.wasm, true);
  assert.equal(caps.deviceClasses.wasm, "wasm");
  const s = await hwfit.select({ model: "bert-base-uncased" });
  assert.deepEqual(Object.keys(s.allScores), ["wasm"]);
  const b = await hwfit.benchmark({ noGpu: false });
  assert.equal(b.gpu, null);
  assert.match(b.gpuError, /navigator\.gpu is absent/);
  assert.ok(b.cpu.matmulF32Gflops > 0 && b.cpu.copyGbs > 0);
});

test("bad input throws typed errors with messages", async () => {
  assert.throws(() => hwfit.classify({}), (e) => e instanceof TypeError && /modelName/.test(e.message));
  assert.throws(() => hwfit.classify(undefined), TypeError);
  assert.throws(() => hwfit.resources({ model: "gpt2", hardware: "tpu" }), TypeError);
  assert.throws(() => hwfit.resources({ model: "no-such-model", hardware: "cpu" }), (e) => e instanceof Error && /no-such-model/.test(e.message));
  await assert.rejects(hwfit.predict({ model: "gpt2", hardware: ["wasm"], batchSise: 2 }), (e) => e instanceof TypeError && /batchSise/.test(e.message));
  await assert.rejects(hwfit.predict({ model: "gpt2", hardware: ["wasm"], batchSize: 0 }), RangeError);
  await assert.rejects(hwfit.predict({ model: "gpt2", devices: ["RTX 9090"] }), (e) => /unknown device/.test(e.message));
  await assert.rejects(hwfit.benchmark({ powerPreference: "max" }), RangeError);
});
