//! The model a request is about: a name (catalog, or estimated from the name) or a Hugging Face
//! `config.json` object, optionally checked against a stated family.

use crate::{CoreError, Family, HfConfig, ResolvedModel};

use super::Hwfit;

impl Hwfit {
    /// Resolves `model_name` / `model_config`; a stated `model_family` must agree with the model's.
    pub fn resolve_model(
        &self,
        model_name: &str,
        model_config: Option<&serde_json::Value>,
        model_family: Option<Family>,
    ) -> Result<ResolvedModel, CoreError> {
        let name = Some(model_name.trim()).filter(|n| !n.is_empty());
        let model = match (model_config, name) {
            (Some(config), name) => {
                let config = HfConfig::deserialize_value(config)?;
                config.to_model(name)?
            }
            (None, Some(name)) => self.catalog.resolve(name)?,
            (None, None) => return Err(CoreError::MissingField { field: "model_name" }),
        };
        if let Some(family) = model_family {
            if family != model.spec.family {
                return Err(CoreError::FamilyMismatch {
                    given: family.as_str(),
                    model: model.spec.name.clone(),
                    actual: model.spec.family.as_str(),
                });
            }
        }
        Ok(model)
    }
}
