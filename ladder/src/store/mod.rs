//! The ladder's store.
