//! The sites' own game files, read and written: AbstractPlay's JSON game
//! records (one, or bulk arrays; [`records`]) and The Garden Gate's game
//! links ([`links`]). These
//! modules know the formats, not the games: which game a file holds, and
//! under what name, the registered games say (`SiteFiles`).

pub mod links;
pub mod lzstring;
pub mod records;
pub mod scan;
