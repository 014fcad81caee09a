//! A small ONNX graph writer over tract-onnx's protobuf types: float initializers, nodes with
//! attributes, typed inputs and outputs, metadata. The trainer writes its MLP with it and the
//! benchmark runner its transformer and CNN graphs.

use prost::Message;
use tract_onnx::pb::{
    attribute_proto::AttributeType, tensor_proto::DataType, tensor_shape_proto, type_proto, AttributeProto, GraphProto,
    ModelProto, NodeProto, OperatorSetIdProto, StringStringEntryProto, TensorProto, TensorShapeProto, TypeProto,
    ValueInfoProto,
};

/// A tensor dimension from a length (saturating; no graph here comes near `i64::MAX`).
#[must_use]
pub fn dim(len: usize) -> i64 {
    i64::try_from(len).unwrap_or(i64::MAX)
}

/// The opset graphs are written for (LayerNormalization needs 17).
pub const OPSET: i64 = 17;

/// An attribute value.
#[derive(Debug, Clone)]
pub enum Attr {
    /// An integer.
    Int(i64),
    /// A float.
    Float(f32),
    /// Integers.
    Ints(Vec<i64>),
}

/// A graph under construction.
#[derive(Debug, Default)]
pub struct GraphBuilder {
    graph: GraphProto,
    counter: usize,
}

fn value_info(name: &str, elem: DataType, dims: &[i64]) -> ValueInfoProto {
    let dim = dims
        .iter()
        .map(|&d| tensor_shape_proto::Dimension {
            value: Some(tensor_shape_proto::dimension::Value::DimValue(d)),
            ..Default::default()
        })
        .collect();
    ValueInfoProto {
        name: name.into(),
        r#type: Some(TypeProto {
            value: Some(type_proto::Value::TensorType(type_proto::Tensor {
                elem_type: elem as i32,
                shape: Some(TensorShapeProto { dim }),
            })),
            ..Default::default()
        }),
        ..Default::default()
    }
}

impl GraphBuilder {
    /// An empty graph.
    #[must_use]
    pub fn new(name: &str) -> Self {
        Self {
            graph: GraphProto {
                name: name.into(),
                ..Default::default()
            },
            counter: 0,
        }
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.counter += 1;
        format!("{prefix}_{}", self.counter)
    }

    /// A float graph input.
    pub fn input(&mut self, name: &str, dims: &[i64]) -> String {
        self.graph.input.push(value_info(name, DataType::Float, dims));
        name.into()
    }

    /// An int64 graph input (token ids).
    pub fn input_i64(&mut self, name: &str, dims: &[i64]) -> String {
        self.graph.input.push(value_info(name, DataType::Int64, dims));
        name.into()
    }

    /// Declares `name` a float graph output.
    pub fn output(&mut self, name: &str, dims: &[i64]) {
        self.graph.output.push(value_info(name, DataType::Float, dims));
    }

    /// A float initializer (a weight).
    pub fn weight(&mut self, prefix: &str, dims: &[i64], data: Vec<f32>) -> String {
        let name = self.fresh(prefix);
        self.graph.initializer.push(TensorProto {
            name: name.clone(),
            dims: dims.to_vec(),
            data_type: DataType::Float as i32,
            float_data: data,
            ..Default::default()
        });
        name
    }

    /// An int64 initializer (shapes, axes).
    pub fn ints(&mut self, values: &[i64]) -> String {
        let name = self.fresh("shape");
        self.graph.initializer.push(TensorProto {
            name: name.clone(),
            dims: vec![dim(values.len())],
            data_type: DataType::Int64 as i32,
            int64_data: values.to_vec(),
            ..Default::default()
        });
        name
    }

    /// A node; returns its (single) output's name.
    pub fn node(&mut self, op: &str, inputs: &[&str], attrs: &[(&str, Attr)]) -> String {
        let output = self.fresh(&op.to_ascii_lowercase());
        self.node_named(op, inputs, attrs, &output);
        output
    }

    /// A node writing the output `output`.
    pub fn node_named(&mut self, op: &str, inputs: &[&str], attrs: &[(&str, Attr)], output: &str) {
        let attribute = attrs
            .iter()
            .map(|(name, value)| {
                let mut a = AttributeProto {
                    name: (*name).into(),
                    ..Default::default()
                };
                match value {
                    Attr::Int(i) => {
                        a.i = *i;
                        a.r#type = AttributeType::Int as i32;
                    }
                    Attr::Float(f) => {
                        a.f = *f;
                        a.r#type = AttributeType::Float as i32;
                    }
                    Attr::Ints(v) => {
                        a.ints.clone_from(v);
                        a.r#type = AttributeType::Ints as i32;
                    }
                }
                a
            })
            .collect();
        self.graph.node.push(NodeProto {
            op_type: op.into(),
            input: inputs.iter().map(|s| (*s).to_string()).collect(),
            output: vec![output.into()],
            name: output.into(),
            attribute,
            ..Default::default()
        });
    }

    /// Parameters held in float initializers.
    #[must_use]
    pub fn parameter_count(&self) -> u64 {
        self.graph
            .initializer
            .iter()
            .filter(|t| t.data_type == DataType::Float as i32)
            .map(|t| t.dims.iter().product::<i64>() as u64)
            .sum()
    }

    /// The model, with `metadata` as `metadata_props`.
    #[must_use]
    pub fn into_model(self, metadata: &[(&str, String)]) -> ModelProto {
        ModelProto {
            ir_version: 8,
            producer_name: "hwfit".into(),
            producer_version: env!("CARGO_PKG_VERSION").into(),
            opset_import: vec![OperatorSetIdProto {
                domain: String::new(),
                version: OPSET,
            }],
            metadata_props: metadata
                .iter()
                .map(|(k, v)| StringStringEntryProto {
                    key: (*k).into(),
                    value: v.clone(),
                })
                .collect(),
            graph: Some(self.graph),
            ..Default::default()
        }
    }
}

/// The serialized model.
#[must_use]
pub fn encode(model: &ModelProto) -> Vec<u8> {
    model.encode_to_vec()
}
