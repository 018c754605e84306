//! `list_orders`: the signed-in customer's orders, newest first.

use super::{Order, customer, plain_numbers};
use crate::GiftShop;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toolpact::{Annotations, CallContext, Json, ToolError, TypedHandler, TypedTool};

/// How many orders come back when the model does not say.
const DEFAULT_LIMIT: u8 = 20;

/// The arguments of `list_orders`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(transform = plain_numbers)]
pub(crate) struct ListOrdersInput {
    /// How many orders to return, newest first, 1 to 50, for example 5; 20 when left out.
    #[schemars(range(min = 1, max = 50))]
    limit: Option<u8>,
}

/// The customer's orders.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(transform = plain_numbers)]
pub(crate) struct Orders {
    /// Newest first; empty when the customer has not ordered yet.
    orders: Vec<Order>,
}

pub(crate) struct ListOrders {
    pub(crate) shop: GiftShop,
}

impl TypedTool for ListOrders {
    type Input = ListOrdersInput;
    type Output = Json<Orders>;
    const NAME: &'static str = "list_orders";

    fn title() -> Option<String> {
        Some("Your orders".to_owned())
    }

    fn description() -> Option<String> {
        Some(
            "Lists the signed-in customer's gift orders, newest first: the gift, quantity, total \
             in euros (EUR), recipient, delivery day and status of each. Call this when the user \
             asks what they have ordered, whether an order went through, or when a gift will \
             arrive."
                .to_owned(),
        )
    }

    fn annotations() -> Option<Annotations> {
        Some(Annotations {
            title: Some("Your orders".to_owned()),
            read_only_hint: Some(true),
            open_world_hint: Some(false),
            ..Annotations::default()
        })
    }
}

impl TypedHandler for ListOrders {
    async fn call(
        &self,
        input: ListOrdersInput,
        ctx: CallContext,
    ) -> Result<Json<Orders>, ToolError> {
        let user = customer(&ctx, ListOrders::NAME)?;
        let limit = input.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, 50);
        let orders = self.shop.orders();
        let stored = orders.list(&user.id, limit.into()).map_err(|e| {
            ToolError::internal(format!("cannot read orders from {}: {e}", orders.label()))
        })?;
        Ok(Json(Orders {
            orders: stored.into_iter().map(Order::from).collect(),
        }))
    }
}
