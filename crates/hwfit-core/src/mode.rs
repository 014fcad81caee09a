//! What is being done with the model: the mode (inference or training) and the workload of one step.

string_enum! {
    /// Inference or training.
    pub enum Mode: "mode" {
        /// Running the model forward only.
        Inference => "inference" | "infer" | "serving",
        /// Updating the weights (forward, backward and optimizer step).
        Training => "training" | "train" | "fine_tuning" | "finetuning",
    }
}

string_enum! {
    /// The unit of work one step performs.
    pub enum Workload: "workload" {
        /// One forward pass over a batch of items (encoders, vision, audio).
        Forward => "forward",
        /// Processing a prompt of `seq_length` tokens into the KV cache and the first token's logits
        /// (generative models, time to first token).
        Prefill => "prefill" | "prompt",
        /// Generating one token per sequence with a KV cache of `seq_length` tokens.
        Decode => "decode" | "generate" | "generation",
        /// One training step: forward, backward and optimizer update.
        TrainStep => "train-step" | "train" | "training" | "train_step",
    }
}

impl Workload {
    /// The mode this workload belongs to.
    #[must_use]
    pub const fn mode(self) -> Mode {
        match self {
            Self::TrainStep => Mode::Training,
            _ => Mode::Inference,
        }
    }
}
