//! The request as the document writes it: a catalog or pasted model's own
//! shape (its parameters, layers, KV heads, head dimension) comes from its
//! config, so the values typed by hand, which it replaces, are left out.
//! Reading the document back takes them from the model again (missing keys
//! take the defaults, which a model replaces).
//!
//! The keys keep their order (`method` first, then the scenario's): the
//! request is written through a serializer that drops the named entries of
//! its one map and passes everything else on.

use crate::request::Request;
use crate::scenario::Field;
use serde::ser::{self, Impossible, Serialize, SerializeMap, Serializer};

/// `request` without the typed shape when it names a model.
pub fn serialize<S: Serializer>(request: &Request, s: S) -> Result<S::Ok, S::Error> {
    match request.scenario.model {
        Some(_) => request.serialize(Without(s)),
        None => request.serialize(s),
    }
}

/// The keys a model replaces.
fn replaced(key: &str) -> bool {
    Field::SHAPE.iter().any(|f| f.key() == key)
}

/// A serializer for the request's map that leaves out [`replaced`] keys.
struct Without<S>(S);

/// The request's map, without the replaced entries.
struct Map<M>(M);

impl<M: SerializeMap> SerializeMap for Map<M> {
    type Ok = M::Ok;
    type Error = M::Error;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), M::Error> {
        self.0.serialize_key(key)
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), M::Error> {
        self.0.serialize_value(value)
    }

    fn serialize_entry<K: ?Sized + Serialize, V: ?Sized + Serialize>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<(), M::Error> {
        let name = serde_json::to_value(key).ok();
        match name.as_ref().and_then(|n| n.as_str()).is_some_and(replaced) {
            true => Ok(()),
            false => self.0.serialize_entry(key, value),
        }
    }

    fn end(self) -> Result<M::Ok, M::Error> {
        self.0.end()
    }
}

/// Anything but a map is not the request: an error (it cannot happen).
fn not_a_map<E: ser::Error>() -> E {
    E::custom("the request is written as one map")
}

macro_rules! refuse {
    ($($name:ident($($arg:ty),*)),* $(,)?) => {
        $(fn $name(self, $(_: $arg),*) -> Result<Self::Ok, Self::Error> {
            Err(not_a_map())
        })*
    };
}

impl<S: Serializer> Serializer for Without<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Impossible<S::Ok, S::Error>;
    type SerializeTuple = Impossible<S::Ok, S::Error>;
    type SerializeTupleStruct = Impossible<S::Ok, S::Error>;
    type SerializeTupleVariant = Impossible<S::Ok, S::Error>;
    type SerializeMap = Map<S::SerializeMap>;
    type SerializeStruct = Impossible<S::Ok, S::Error>;
    type SerializeStructVariant = Impossible<S::Ok, S::Error>;

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        self.0.serialize_map(len).map(Map)
    }

    refuse!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
    );

    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<S::Ok, S::Error> {
        Err(not_a_map())
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<S::Ok, S::Error> {
        Err(not_a_map())
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<S::Ok, S::Error> {
        Err(not_a_map())
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        Err(not_a_map())
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, S::Error> {
        Err(not_a_map())
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        Err(not_a_map())
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        Err(not_a_map())
    }

    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        Err(not_a_map())
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        Err(not_a_map())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{ModelRef, ScenarioInput};

    #[derive(serde::Serialize)]
    struct Doc<'a> {
        #[serde(serialize_with = "super::serialize")]
        inputs: &'a Request,
    }

    fn keys(request: &Request) -> Vec<String> {
        let text = serde_json::to_string(&Doc { inputs: request }).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        value["inputs"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    }

    #[test]
    fn a_model_leaves_the_typed_shape_out_and_the_order_in() {
        let typed = Request::default();
        assert!(keys(&typed).contains(&"layers".to_string()));
        let model = Request {
            scenario: ScenarioInput {
                model: Some(ModelRef::Catalog("Qwen/Qwen3-8B".into())),
                ..ScenarioInput::default()
            },
            ..Request::default()
        };
        let k = keys(&model);
        for shape in ["params_b", "layers", "kv_heads", "head_dim"] {
            assert!(!k.contains(&shape.to_string()), "{shape}: {k:?}");
        }
        let text = serde_json::to_string(&Doc { inputs: &model }).unwrap();
        assert!(
            text.starts_with(r#"{"inputs":{"method":"quick","mode":"inference","model""#),
            "{text}"
        );
        // Read back, it is the same request.
        let back: Request = serde_json::from_str(&text[10..text.len() - 1]).unwrap();
        assert_eq!(back, model);
    }
}
