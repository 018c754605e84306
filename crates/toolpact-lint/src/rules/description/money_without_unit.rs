use crate::analysis::schema::Property;
use crate::analysis::words::{identifier_words, stem, text_words};
use crate::context::{Context, ToolView};
use crate::finding::Violation;
use crate::meta::RuleMeta;
use crate::rule::{ChecksTools, Rule, declare_rule};

declare_rule! {
    /// ## What it does
    /// Finds amounts of money that do not say their currency or unit.
    ///
    /// An amount is a numeric property named `price`, `budget`, `amount`, `cost`, `fee`,
    /// `salary`, `balance`, `tax`, `total` and the like, in camelCase or snake_case
    /// (`maxBudget`, `unit_price`, `refundAmount`). It is reported when its description names
    /// no currency or unit ("EUR", "USD", "€", "$", "in the user's currency", "in cents",
    /// "ISO 4217", "percent"), its name does not either (`price_usd`, `amountCents`), and no
    /// `currency` property stands beside it. Counts (`totalPages`, `amount_of_items`) and
    /// rates (`tax_rate`) are left alone.
    ///
    /// ## Why is this bad?
    /// `"maxBudget": 50` is fifty euros to one user, fifty dollars to another, and five
    /// thousand cents to a payment API. The model cannot know which, converts or does not,
    /// and orders something ten times too expensive.
    ///
    /// ## Example
    /// ```json
    /// {"type": "object", "properties": {
    ///   "maxBudget": {"type": "number", "description": "Budget"}
    /// }}
    /// ```
    ///
    /// ## Use instead
    /// ```json
    /// {"type": "object", "properties": {
    ///   "maxBudget": {"type": "number", "minimum": 0, "description": "Most the user wants to spend, in the user's currency, e.g. 50"}
    /// }}
    /// ```
    /// or a `currency` property beside it: `"currency": {"type": "string", "description":
    /// "ISO 4217 code, e.g. \"EUR\""}`.
    ///
    /// ## References
    /// - Money is described with its unit or currency
    /// - ISO 4217 currency codes: <https://www.iso.org/iso-4217-currency-codes.html>
    pub struct MoneyWithoutUnit {
        code: "TP109",
        name: "money-without-unit",
        category: Description,
        severity: Warning,
        options: [],
    }
}

/// Stems of name words that make a number an amount of money.
const MONEY_WORDS: &[&str] = &[
    "price", "budget", "amount", "cost", "fee", "salary", "wage", "balance", "charge", "tax",
    "revenue", "subtotal", "deposit", "income", "payout", "spend", "spending", "payment", "refund",
    "tip", "discount", "rent", "fare", "donation",
];

/// Stems of name words that make it a count, a rate or a duration instead.
const NOT_MONEY: &[&str] = &[
    "count",
    "number",
    "item",
    "page",
    "result",
    "percent",
    "percentage",
    "pct",
    "ratio",
    "rate",
    "quantity",
    "qty",
    "token",
    "calory",
    "kcal",
    "point",
    "score",
    "center",
    "code",
    "id",
    "type",
    "category",
    "method",
    "currency",
    "precision",
    "step",
    "index",
    "time",
    "second",
    "minute",
    "hour",
    "day",
    "ms",
    "call",
    "request",
    "gas",
    "level",
];

/// Words of a description or a name that name a currency or a unit.
const UNIT_WORDS: &[&str] = &[
    "currency",
    "currencies",
    "cent",
    "cents",
    "pence",
    "penny",
    "pennies",
    "euro",
    "euros",
    "dollar",
    "dollars",
    "pound",
    "pounds",
    "sterling",
    "yen",
    "yuan",
    "renminbi",
    "rupee",
    "rupees",
    "reais",
    "franc",
    "francs",
    "krona",
    "kronor",
    "krone",
    "kroner",
    "zloty",
    "peso",
    "pesos",
    "lira",
    "rand",
    "ringgit",
    "baht",
    "dirham",
    "rouble",
    "ruble",
    "satoshi",
    "sats",
    "4217",
    "minor",
    "smallest",
    "percent",
    "percentage",
    "points",
    "credits",
    "tokens",
    "hours",
    "minutes",
    "seconds",
    "days",
];

/// Common ISO 4217 codes, written in capitals in a description or in any case in a name.
const CURRENCY_CODES: &[&str] = &[
    "USD", "EUR", "GBP", "JPY", "CNY", "INR", "BRL", "KRW", "CHF", "CAD", "AUD", "NZD", "MXN",
    "SEK", "NOK", "DKK", "PLN", "CZK", "HUF", "RUB", "TRY", "ZAR", "SGD", "HKD", "ILS", "AED",
    "SAR", "THB", "IDR", "MYR", "PHP", "VND", "ARS", "CLP", "COP", "PEN", "TWD", "UAH", "BTC",
];

/// Currency symbols.
const SYMBOLS: &str = "€$£¥₹₩₽₺₿¢₪₫₴";

/// Whether the property's name makes it money.
fn is_money(words: &[String]) -> bool {
    let stems: Vec<String> = words.iter().map(|w| stem(w)).collect();
    if stems.iter().any(|w| NOT_MONEY.contains(&w.as_str())) {
        return false;
    }
    stems.iter().any(|w| MONEY_WORDS.contains(&w.as_str())) || stems == ["total"]
}

/// Whether free text names a currency or a unit.
fn names_unit(text: &str) -> bool {
    text.chars().any(|c| SYMBOLS.contains(c))
        || text
            .split(|c: char| !c.is_alphanumeric())
            .any(|t| CURRENCY_CODES.contains(&t))
        || text_words(text)
            .iter()
            .any(|w| UNIT_WORDS.contains(&w.as_str()))
        || text.contains('%')
}

/// Whether a name (its own or a sibling's) says the currency or unit.
fn name_says_unit(words: &[String]) -> bool {
    words.iter().any(|w| {
        UNIT_WORDS.contains(&w.as_str())
            || CURRENCY_CODES.contains(&w.to_ascii_uppercase().as_str())
    })
}

/// Whether a property beside it carries the currency.
fn has_currency_sibling(property: &Property<'_, '_>) -> bool {
    property
        .siblings
        .iter()
        .any(|s| identifier_words(s).iter().any(|w| w == "currency"))
}

impl Rule for MoneyWithoutUnit {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn checks_tools(&self) -> Option<&dyn ChecksTools> {
        Some(self)
    }
}

impl ChecksTools for MoneyWithoutUnit {
    fn check_tool(&self, _cx: &Context<'_>, view: &ToolView<'_>, out: &mut Vec<Violation>) {
        let i = view.index;
        view.for_each_property(&mut |property| {
            let types = property.types();
            if !(types.contains("number") || types.contains("integer")) || property.is_closed() {
                return;
            }
            let words = property.name_words();
            if !is_money(&words) {
                return;
            }
            let described = property.description().is_some_and(names_unit);
            if described || name_says_unit(&words) || has_currency_sibling(property) {
                return;
            }
            out.push(Violation {
                tool: Some(i),
                message: format!(
                    "the money property {:?} does not say its currency or unit",
                    property.name
                ),
                help: "name the currency or unit in the description (\"in EUR\", \"in the user's currency\", \"in cents\"), or add a \"currency\" property beside it with an ISO 4217 code".into(),
                pointer: property.pointer.to_owned(),
            });
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_names() {
        for name in [
            "maxBudget",
            "unit_price",
            "refundAmount",
            "total",
            "shippingCost",
            "fees",
        ] {
            assert!(is_money(&identifier_words(name)), "{name}");
        }
        for name in [
            "totalPages",
            "amount_of_items",
            "tax_rate",
            "total_count",
            "currency",
            "budget_days",
            "price_id",
        ] {
            assert!(!is_money(&identifier_words(name)), "{name}");
        }
    }

    #[test]
    fn units() {
        assert!(names_unit(
            "Maximum price in the user's currency, e.g. 49.99."
        ));
        assert!(names_unit("Budget in EUR"));
        assert!(names_unit("Amount in cents"));
        assert!(names_unit("up to €50"));
        assert!(names_unit("Discount, 0-100 %"));
        assert!(!names_unit("Budget"));
        assert!(!names_unit("Maximum price to pay"));
        assert!(!names_unit("Use the API"));
        assert!(name_says_unit(&identifier_words("priceUsd")));
        assert!(name_says_unit(&identifier_words("amount_cents")));
    }
}
