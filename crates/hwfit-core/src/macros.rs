//! `string_enum!`: a fieldless enum whose string form is its serde form, with case-insensitive
//! parsing and aliases. One definition gives `as_str`, `ALL`, `Display`, `FromStr`, `Serialize` and
//! `Deserialize`, so every named value in hwfit parses and prints the same way everywhere.

macro_rules! string_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident : $what:literal {
            $(
                $(#[$vmeta:meta])*
                $variant:ident => $canonical:literal $(| $alias:literal)*
            ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The canonical string form (also the serde form).
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self { $($name::$variant => $canonical),+ }
            }
        }

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl core::str::FromStr for $name {
            type Err = $crate::error::CoreError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                let wanted = $crate::text::normalize_key(s);
                $(
                    if wanted == $crate::text::normalize_key($canonical)
                        $(|| wanted == $crate::text::normalize_key($alias))*
                    {
                        return Ok($name::$variant);
                    }
                )+
                Err($crate::error::CoreError::UnknownValue {
                    what: $what,
                    value: alloc::string::String::from(s),
                    expected: alloc::vec![$($canonical),+].join(", "),
                })
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        #[cfg(feature = "schema")]
        impl schemars::JsonSchema for $name {
            fn schema_name() -> alloc::borrow::Cow<'static, str> {
                alloc::borrow::Cow::Borrowed(stringify!($name))
            }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                let values: alloc::vec::Vec<serde_json::Value> =
                    alloc::vec![$(serde_json::Value::from($canonical)),+];
                schemars::json_schema!({ "type": "string", "enum": values })
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <alloc::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}
