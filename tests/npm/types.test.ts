// Type-checked (never run) against the packed package's hwfit.d.ts by scripts/test-npm with `tsc
// --strict`: the generated types must describe the exports as apps call them, and refuse what the
// exports refuse.
import * as hwfit from "hwfit";
import type { PredictAnswer, Selection, SelectRequest, CapabilityReport, HardwareType, ChartsAnswer } from "hwfit";

export async function typed(): Promise<void> {
  const request: SelectRequest = { modelName: "bert-base-uncased", hardware: ["cpu", "cuda"], batchSize: 8 };
  const selection: Selection = await hwfit.select(request);
  const primary: string | null = selection.primaryRecommendation;
  const score: number | null = selection.allScores["cuda"].score;
  const answer: PredictAnswer = await hwfit.predict({ modelName: "gpt2", mode: "training", workload: "train-step" });
  const throughput: number = answer.predictions["cpu"].throughput;
  const kind: HardwareType = answer.predictions["cpu"].hardwareType;
  const caps: CapabilityReport = await hwfit.probe();
  const simd: boolean = caps.wasm.simd;
  const models = hwfit.models({ family: "vision" }).map((m) => m.name);
  const all = hwfit.models().length + hwfit.devices().length;
  const cell = (await hwfit.matrix({ models: ["gpt2"], precisions: ["q4_k_m"] })).models["gpt2"];
  const drawn: ChartsAnswer = await hwfit.charts({ models: ["gpt2"], hardware: ["cpu", "cuda"] });
  const svg: string = drawn.charts[0].svg;
  hwfit.configure({ selectionConfig: null });
  void [primary, score, throughput, kind, simd, models, all, cell, svg];

  // @ts-expect-error JS field names are camelCase
  await hwfit.select({ model_name: "gpt2" });
  // @ts-expect-error "train" is not a workload ("train-step" is)
  await hwfit.predict({ modelName: "gpt2", workload: "train" });
  // @ts-expect-error "tpu" is not a hardware type
  hwfit.resources({ modelName: "gpt2", hardware: "tpu" });
  // @ts-expect-error batchSize is a number
  await hwfit.predict({ modelName: "gpt2", batchSize: "8" });
}
