"""The aten operators an eager Hugging Face model dispatches per step, per layer and fixed.

    count_eager_ops.py '[["CONFIG_DIR", CAUSAL, ["forward"|"prefill"|"decode"|"train", ...]], ...]'

Each CONFIG_DIR holds a config.json. The model is built with random weights at 1 and 2 layers (0 for
ResNet: counted whole) and one step runs on the CPU under a TorchDispatchMode that counts every aten
call (views included); the difference of the two counts is one layer's operators, the rest the
step's fixed part. A training step is forward, backward and torch.optim.AdamW(foreach=True), the
CUDA default. Prints one line per model and workload and writes eager_ops.json here. Encoder-
decoder models (T5) are not built (their step needs decoder inputs).
"""
import json, sys, collections, torch, transformers
from torch.utils._python_dispatch import TorchDispatchMode
from transformers import AutoConfig, AutoModel, AutoModelForCausalLM

class Count(TorchDispatchMode):
    def __init__(self): super().__init__(); self.n=0; self.views=0; self.names=collections.Counter()
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.n+=1; self.names[str(func.overloadpacket.__name__)]+=1
        if func.is_view: self.views+=1
        return func(*args, **(kwargs or {}))

def shrink(cfg, layers):
    c = cfg
    for k in ("num_hidden_layers","n_layer","num_layers"):
        if hasattr(c,k): setattr(c,k,layers)
    for sub in ("text_config",):
        if hasattr(c, sub) and getattr(c, sub) is not None:
            shrink(getattr(c,sub), layers)
    if hasattr(c, "layer_types") and c.layer_types: c.layer_types = c.layer_types[:layers]
    if hasattr(c,"mlp_only_layers"): pass
    return c

def count(path, layers, workload, causal):
    cfg = AutoConfig.from_pretrained(path)
    cfg = shrink(cfg, layers)
    for k in ("hidden_size",):
        pass
    torch.manual_seed(0)
    if causal:
        m = AutoModelForCausalLM.from_config(cfg, torch_dtype=torch.float32)
    else:
        m = AutoModel.from_config(cfg)
    m.eval()
    ids = torch.randint(0, 100, (1, 16))
    mask = torch.ones(1,16, dtype=torch.long)
    with (torch.inference_mode() if workload!='train' else torch.enable_grad()):
        if workload=="decode":
            out = m(input_ids=ids, attention_mask=mask, use_cache=True)
            cache = out.past_key_values
            with Count() as c:
                m(input_ids=ids[:, :1], attention_mask=torch.ones(1,17,dtype=torch.long), past_key_values=cache, use_cache=True)
        elif workload=="prefill":
            with Count() as c:
                m(input_ids=ids, attention_mask=mask, use_cache=True, logits_to_keep=1)
        elif workload=="train":
            pass
        else:
            with Count() as c:
                if getattr(cfg,"model_type","")=="resnet":
                    m(pixel_values=torch.randn(1,3,64,64))
                elif getattr(cfg,"model_type","") in ("vit","dinov2"):
                    m(pixel_values=torch.randn(1,3,224,224))
                else:
                    m(input_ids=ids, attention_mask=mask)
    if workload=="train":
        m.train()
        opt = torch.optim.AdamW(m.parameters(), lr=1e-5, foreach=True)
        def step():
            if causal:
                loss = m(input_ids=ids, attention_mask=mask, labels=ids, use_cache=False).loss
            elif getattr(cfg,"model_type","")=="resnet":
                loss = m(pixel_values=torch.randn(1,3,64,64))[0].float().pow(2).mean()
            else:
                o = m(input_ids=ids, attention_mask=mask); loss = o[0].float().pow(2).mean()
            loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)
        step()
        with Count() as c:
            step()
    return c

out = {}
for path, causal, workloads in json.loads(sys.argv[1]):
    for w in workloads:
        a = count(path, 1, w, causal); b = count(path, 2, w, causal)
        if "resnet" in path: a = count(path, 0, w, causal); b=a
        per = b.n - a.n; fixed = a.n - per
        pv = b.views - a.views
        diff = b.names - a.names
        out[f"{path.split('/')[-1]} {w}"] = dict(per_layer=per, per_layer_views=pv, fixed=fixed, top=diff.most_common(12))
        print(path.split('/')[-1], w, "per layer", per, "(views", pv, ") fixed", fixed, dict(diff.most_common(10)), flush=True)
json.dump(out, open("eager_ops.json", "w"), indent=1)
