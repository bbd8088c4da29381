//! The tools, one file per noun. Each file holds the tool types, their argument
//! and result types, and their effect.

pub mod arrange;
pub mod board;
pub mod changes;
pub mod chat;
pub mod connector;
pub mod delete;
pub mod duplicate;
pub mod group;
pub mod image;
pub mod import;
pub mod ink;
pub mod layout;
pub mod mermaid;
pub mod page;
pub mod pick;
pub mod read;
pub mod render;
pub mod shape;
pub mod update;
