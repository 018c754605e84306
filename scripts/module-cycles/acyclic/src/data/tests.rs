//! Unit tests of the data layer may reach any module.

use crate::handler::Handler;
use crate::registry::Registry;
