"""The aten calls one layer of each kind adds to an eager step of a hybrid decoder (Mamba-2, Gated
DeltaNet, short-convolution and attention layers).

    count_mixer_ops.py '[["CONFIG.json", ANCHOR, KIND, ["decode"|"prefill", ...], [SEQ, ...], {OVERRIDES}], ...]' OUT.json

The model is built from CONFIG.json with random weights as one ANCHOR layer (an attention layer, so
the cache knows its length) followed by one, then two, KIND layers (`layer_types`, or Nemotron-H's
`hybrid_override_pattern` symbols); the difference of the two counts under a TorchDispatchMode is
one KIND layer's calls. Expert counts are cut to 8 (2 per token): the calls do not depend on them.
OVERRIDES set config fields (`"mlp_only_layers": "all_layers"` gives Qwen3-Next dense layers).
Run on the CPU, where transformers runs the optional kernels' reference PyTorch code, as it does on
a GPU without `mamba_ssm`, `causal_conv1d` or `flash-linear-attention` installed.
"""
import json, sys, collections, torch, transformers
from torch.utils._python_dispatch import TorchDispatchMode
from transformers import AutoConfig, AutoModelForCausalLM

class Count(TorchDispatchMode):
    def __init__(self): super().__init__(); self.n=0; self.names=collections.Counter()
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.n+=1; self.names[str(func.overloadpacket.__name__)]+=1
        return func(*args, **(kwargs or {}))

def build(path, kind, layers, anchor, overrides):
    d = json.load(open(path))
    for k, v in overrides.items():
        d[k] = list(range(layers + 1)) if v == "all_layers" else v
    for k in ('time_step_limit','auto_map','architectures','transformers_version','full_attn_idxs'):
        d.pop(k, None)
    mt = d['model_type']
    # one attention layer keeps the cache's length known; the layers counted follow it
    d['num_hidden_layers'] = layers + 1
    if mt == 'nemotron_h':
        d['hybrid_override_pattern'] = anchor + kind * layers
    else:
        d['layer_types'] = [anchor] + [kind] * layers
    for k in ('num_experts', 'n_routed_experts'):
        if k in d: d[k] = 8  # op counts do not depend on the number of experts
    for k in ('num_experts_per_tok',):
        if k in d: d[k] = min(d[k], 2)
    cfg = AutoConfig.for_model(**d)
    torch.manual_seed(0)
    return AutoModelForCausalLM.from_config(cfg, torch_dtype=torch.float32).eval()

def count(path, kind, layers, workload, seq, anchor, overrides):
    m = build(path, kind, layers, anchor, overrides)
    ids = torch.randint(0, 100, (1, seq)); mask = torch.ones(1, seq, dtype=torch.long)
    with torch.inference_mode():
        if workload == 'decode':
            out = m(input_ids=ids, attention_mask=mask, use_cache=True)
            with Count() as c:
                m(input_ids=ids[:, :1], attention_mask=torch.ones(1, seq+1, dtype=torch.long), past_key_values=out.past_key_values, use_cache=True)
        else:
            with Count() as c:
                m(input_ids=ids, attention_mask=mask, use_cache=True, logits_to_keep=1)
    return c

out = {}
for path, anchor, kind, workloads, seqs, *rest in json.loads(sys.argv[1]):
    overrides = rest[0] if rest else {}
    for w in workloads:
        for seq in seqs:
            a = count(path, kind, 1, w, seq, anchor, overrides); b = count(path, kind, 2, w, seq, anchor, overrides)
            per = b.n - a.n
            key = f"{path.split('/')[-1].replace('.json','')} {kind} {w} {seq}" + (" " + ",".join(overrides) if overrides else "")
            out[key] = dict(per_layer=per, fixed=a.n - per, top=(b.names - a.names).most_common(10))
            print(key, 'per layer', per, 'fixed', a.n - per, dict((b.names - a.names).most_common(8)), flush=True)
json.dump(out, open(sys.argv[2], 'w'), indent=1)
