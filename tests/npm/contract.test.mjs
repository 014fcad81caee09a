// The contract: every question asked three ways — `hwfit … --json`, the npm package (in node) and
// `hwfit serve` over HTTP — gives the same answer, modulo key case (snake_case from the CLI and HTTP,
// camelCase from JS). Run by scripts/test-npm in the throwaway project, with HWFIT_BIN naming the CLI.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import * as hwfit from "hwfit";

const require = createRequire(import.meta.url);
hwfit.initSync({ module: readFileSync(join(dirname(require.resolve("hwfit/package.json")), "hwfit_bg.wasm")) });

const bin = process.env.HWFIT_BIN;
if (!bin) throw new Error("set HWFIT_BIN to the hwfit binary");

// Each question: the HTTP route and body (IPFS Accelerate's names), the JS export, the CLI arguments.
// Every request names its hardware, so no face's local detection or probe enters the answer.
const QUESTIONS = [
  { name: "classify", http: ["POST", "/models/classify"], js: "classify",
    body: { model_name: "gpt2", tasks: ["text-generation"] }, cli: ["classify", "gpt2", "--task", "text-generation"] },
  { name: "models", http: ["GET", "/models?family=vision"], js: "models",
    body: { family: "vision" }, cli: ["models", "--family", "vision"] },
  { name: "model detail", http: ["POST", "/models/detail"], js: "model",
    body: { model_name: "t5-small" }, cli: ["models", "t5-small"] },
  { name: "resources", http: ["POST", "/resources"], js: "resources",
    body: { model_name: "gpt2", hardware: "cuda", precision: "fp16", batch_size: 4, sequence_length: 256 },
    cli: ["resources", "gpt2", "--hardware", "cuda", "--precision", "fp16", "--batch-size", "4", "--sequence-length", "256"] },
  { name: "compat", http: ["GET", "/compat"], js: "compat", body: undefined, cli: ["compat"] },
  { name: "devices", http: ["GET", "/devices?hardware=rocm"], js: "devices",
    body: { hardware: "rocm" }, cli: ["devices", "--hardware", "rocm"] },
  { name: "predict", http: ["POST", "/performance/predict"], js: "predict",
    body: { model_name: "Llama 3 8B", hardware: ["cuda", "webgpu"], devices: ["rtx 4090"], precision: "q4_k_m", batch_size: 2 },
    cli: ["predict", "Llama 3 8B", "--hardware", "cuda,webgpu", "--device", "rtx 4090", "--precision", "q4_k_m", "--batch-size", "2"] },
  { name: "predict (training)", http: ["POST", "/performance/predict"], js: "predict",
    body: { model_name: "bert-base-uncased", hardware: ["cuda"], mode: "training", precision: "bf16", batch_size: 16 },
    cli: ["predict", "bert-base-uncased", "--hardware", "cuda", "--mode", "training", "--precision", "bf16", "--batch-size", "16"] },
  { name: "select", http: ["POST", "/hardware/select"], js: "select",
    body: { model_name: "bert-base-uncased", hardware: ["cpu", "cuda", "rocm", "mps"], batch_size: 8 },
    cli: ["select", "bert-base-uncased", "--hardware", "cpu,cuda,rocm,mps", "--batch-size", "8"] },
  { name: "select (distributed)", http: ["POST", "/hardware/select"], js: "select",
    body: { model_name: "gpt2", hardware: ["cuda"], mode: "training", distributed: true, gpu_count: 4, batch_size: 8 },
    cli: ["select", "gpt2", "--hardware", "cuda", "--mode", "training", "--distributed", "4", "--batch-size", "8"] },
  { name: "batch select", http: ["POST", "/hardware/batch"], js: "batchSelect",
    body: { models: [{ name: "gpt2" }, { name: "vit-base-patch16-224" }], hardware: ["cpu", "cuda"] },
    cli: ["batch", "gpt2", "vit-base-patch16-224", "--hardware", "cpu,cuda"] },
  { name: "analyze", http: ["POST", "/analysis/model"], js: "analyze",
    body: { model_name: "bert-base-uncased", hardware: ["cpu", "cuda"], batch_sizes: [1, 16] },
    cli: ["analyze", "bert-base-uncased", "--hardware", "cpu,cuda", "--batch-sizes", "1,16"] },
  { name: "matrix", http: ["POST", "/performance/matrix"], js: "matrix",
    body: { models: ["gpt2", "bert-base-uncased"], hardware: ["cpu", "cuda"], batch_sizes: [1, 8], precisions: ["fp32", "int8"] },
    cli: ["matrix", "--models", "gpt2,bert-base-uncased", "--hardware", "cpu,cuda", "--batch-sizes", "1,8", "--precision", "fp32,int8"] },
  { name: "map", http: ["POST", "/hardware/map"], js: "map",
    body: { hardware: ["cpu", "cuda", "mps"], model_families: ["embedding", "vision"], batch_sizes: [1, 32] },
    cli: ["map", "--hardware", "cpu,cuda,mps", "--families", "embedding,vision", "--batch-sizes", "1,32"] },
  { name: "distributed", http: ["POST", "/training/distributed"], js: "distributed",
    body: { model_name: "gpt2", gpu_count: 8, batch_size: 16, max_memory_gb: 16 },
    cli: ["distributed", "gpt2", "--gpu-count", "8", "--batch-size", "16", "--max-memory-gb", "16"] },
  { name: "resource pool", http: ["POST", "/resources/pool"], js: "resourcePool",
    body: { models: ["gpt2", "bert-base-uncased"], hardware: ["cuda", "cpu"] },
    cli: ["resource-config", "gpt2", "bert-base-uncased", "--hardware", "cuda,cpu"] },
  { name: "recommend", http: ["POST", "/models/recommend"], js: "recommend",
    body: { task: "text-classification", hardware: ["cpu"] }, cli: ["recommend", "--task", "text-classification", "--hardware", "cpu"] },
  { name: "compatible", http: ["POST", "/models/compatible"], js: "compatible",
    body: { models: ["gpt2", "Llama 3 8B"], device: "rtx 3090" }, cli: ["compatible", "gpt2", "Llama 3 8B", "--device", "rtx 3090"] },
  { name: "template", http: ["POST", "/templates"], js: "template",
    body: { model_name: "bert-base-uncased", runtime: "transformers.js", hardware: ["webgpu", "wasm"], batch_size: 4 },
    cli: ["template", "bert-base-uncased", "--runtime", "transformers.js", "--hardware", "webgpu,wasm", "--batch-size", "4"],
    // The CLI also renders the file from the decision.
    cliExtra: ["content"] },
];

const camel = (k) => k.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const snake = (k) => k.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());
/** Renames the keys of a request (field names only: the contract's requests carry no data maps). */
const toCamel = (v) =>
  Array.isArray(v) ? v.map(toCamel)
  : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [camel(k), toCamel(x)]))
  : v;
/** Renames every key of an answer; data keys (ids, hardware types, precisions) have no capitals. */
const toSnake = (v) =>
  Array.isArray(v) ? v.map(toSnake)
  : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [snake(k), toSnake(x)]))
  : v;

let server;
let base;

before(async () => {
  // The CLI and the server know the device database and the learned predictor; the package loads
  // them apart (the asynchronous questions would on first use; map() is synchronous).
  await hwfit.loadDeviceDatabase();
  await hwfit.loadPredictor();
  server = spawn(bin, ["serve", "--port", "0", "--no-detect"], { stdio: ["ignore", "pipe", "inherit"] });
  base = await new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (chunk) => {
      out += chunk;
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m) resolve(m[1]);
    });
    server.on("exit", (code) => reject(new Error(`hwfit serve exited with ${code}: ${out}`)));
  });
});

after(() => server?.kill("SIGTERM"));

async function http([method, path], body) {
  const res = await fetch(base + path, {
    method,
    headers: body !== undefined && method === "POST" ? { "content-type": "application/json" } : {},
    body: method === "POST" ? JSON.stringify(body ?? {}) : undefined,
  });
  const json = await res.json();
  assert.equal(res.status, 200, JSON.stringify(json));
  return json;
}

function cli(args) {
  return JSON.parse(execFileSync(bin, [...args, "--json"], { encoding: "utf8" }));
}

for (const q of QUESTIONS) {
  test(`${q.name}: CLI = npm package = HTTP`, async () => {
    const overHttp = await http(q.http, q.body);
    const fromJs = toSnake(await hwfit[q.js](q.body === undefined ? undefined : toCamel(q.body)));
    const fromCli = cli(q.cli);
    for (const key of q.cliExtra ?? []) {
      assert.equal(typeof fromCli[key], "string", key);
      delete fromCli[key];
    }
    assert.deepEqual(fromJs, overHttp, "npm package vs HTTP");
    assert.deepEqual(fromCli, overHttp, "CLI vs HTTP");
  });
}

test("an unknown model is the same error everywhere", async () => {
  const res = await fetch(base + "/hardware/select", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model_name: "no-such-model-xyz", hardware: ["cpu"] }),
  });
  const overHttp = await res.json();
  assert.equal(res.status, 404);
  const js = await hwfit.select({ modelName: "no-such-model-xyz", hardware: ["cpu"] }).then(
    () => assert.fail("no error"),
    (e) => e.message,
  );
  assert.equal(js, overHttp.message);
  let stderr = "";
  try {
    execFileSync(bin, ["select", "no-such-model-xyz", "--hardware", "cpu", "--json"], { encoding: "utf8", stdio: "pipe" });
    assert.fail("no error");
  } catch (e) {
    stderr = String(e.stderr);
  }
  assert.ok(stderr.includes(overHttp.message), stderr);
});
