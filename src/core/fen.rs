//! FEN reading and writing (placeholder; being written).
