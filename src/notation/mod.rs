//! Move notation: SAN (any language's piece letters), UCI and LAN.

pub mod uci;
