//! The MCP server value: the service's state and the tool router, one per request (the
//! transport is stateless). Its tools are in [`super::tools`], how a call runs in
//! [`super::call`], what it answers besides tools in [`super::handler`].

use crate::ops::Services;
use rmcp::handler::server::router::tool::ToolRouter;

#[derive(Clone)]
pub struct JournalMcp {
    pub(super) state: Services,
    pub(super) tool_router: ToolRouter<JournalMcp>,
}
