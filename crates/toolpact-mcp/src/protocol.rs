//! The MCP protocol versions this crate speaks, declared once: as text for the public API,
//! and as rmcp's values for the wire.

use rmcp::model::ProtocolVersion;
use toolpact::LATEST_MCP_VERSION;

/// The MCP protocol versions this crate serves, oldest first: the ones with `title`,
/// `outputSchema` and `structuredContent` (2025-06-18 on), as far as rmcp implements them.
/// The newest is the one toolpact renders results for ([`LATEST_MCP_VERSION`]).
pub const PROTOCOL_VERSIONS: [&str; 3] = ["2025-06-18", "2025-11-25", LATEST_MCP_VERSION];

/// [`PROTOCOL_VERSIONS`] as rmcp's values, oldest first.
pub(crate) fn served() -> Vec<ProtocolVersion> {
    ProtocolVersion::KNOWN_VERSIONS
        .iter()
        .filter(|known| PROTOCOL_VERSIONS.contains(&known.as_str()))
        .cloned()
        .collect()
}

/// The version a client asks a server for: the newest of [`PROTOCOL_VERSIONS`] that still
/// begins with `initialize`, which every server since 2024-11-05 answers.
pub(crate) fn requested() -> ProtocolVersion {
    served()
        .into_iter()
        .rfind(ProtocolVersion::has_initialize)
        .unwrap_or(ProtocolVersion::LATEST_WITH_INITIALIZE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rmcp_knows_every_version_served() {
        let served: Vec<String> = served().iter().map(ToString::to_string).collect();
        assert_eq!(served, PROTOCOL_VERSIONS);
    }

    #[test]
    fn a_client_asks_for_the_newest_version_with_initialize() {
        assert_eq!(requested(), ProtocolVersion::V_2025_11_25);
    }
}
