//! Tests of the llamacpp method against the shared configs.
