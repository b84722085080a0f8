import Foundation
import WidgetQuotaSupport

/// Prices per model in USD per token, in the format of LiteLLM's
/// `model_prices_and_context_window.json` (`input_cost_per_token`, `output_cost_per_token`).
public struct PriceTable: Sendable, Equatable {
    /// A model's price.
    public struct Price: Sendable, Equatable, Codable {
        /// USD per input token.
        public var inputCostPerToken: Double
        /// USD per output token.
        public var outputCostPerToken: Double

        /// A price from USD per input and per output token.
        public init(inputCostPerToken: Double, outputCostPerToken: Double) {
            self.inputCostPerToken = inputCostPerToken
            self.outputCostPerToken = outputCostPerToken
        }
    }

    /// Prices by model name.
    public var prices: [String: Price]
    /// Where the figures come from and when they were read.
    public var source: String
    /// The provider of each model that names one (LiteLLM's `litellm_provider`), by model name.
    public var providers: [String: String]

    /// A table of `prices` by model, saying where they come from (`source`) and each model's provider.
    public init(prices: [String: Price], source: String, providers: [String: String] = [:]) {
        self.prices = prices
        self.source = source
        self.providers = providers
    }

    /// The bundled table: Google's public Gemini API prices (paid tier, text) and OpenAI's for
    /// gpt-4o-mini (standard tier, text), as read on the dates given.
    public static let bundled = PriceTable(
        prices: [
            "gemini-2.5-flash": Price(inputCostPerToken: 0.30 / 1_000_000, outputCostPerToken: 2.50 / 1_000_000),
            "gemini-2.5-flash-lite": Price(inputCostPerToken: 0.10 / 1_000_000, outputCostPerToken: 0.40 / 1_000_000),
            "gpt-4o-mini": Price(inputCostPerToken: 0.15 / 1_000_000, outputCostPerToken: 0.60 / 1_000_000),
        ],
        source:
            "bundled API prices: Gemini read 2026-11-29 (Gemini 2.5 Flash $0.30/$2.50, Flash-Lite $0.10/$0.40), OpenAI read 2026-12-02 "
            + "(gpt-4o-mini $0.15/$0.60) per 1M input/output tokens; check current pricing"
    )

    /// The price of `model`: an exact name, or a LiteLLM provider-prefixed one (`gemini/gemini-2.5-flash`).
    package func price(for model: String) throws -> Price {
        if let p = prices[model] { return p }
        for (name, p) in prices.sorted(by: { $0.key < $1.key }) where name.hasSuffix("/" + model) || model.hasSuffix("/" + name) {
            return p
        }
        let hint = Levenshtein.nearest(to: model, in: prices.keys).map { "; did you mean \"\($0)\"?" } ?? ""
        throw WidgetQuotaError.invalidScenario(field: "api.model", problem: "no price for model \"\(model)\" in \(source)\(hint)")
    }

    /// The provider the table names for `model` (`litellm_provider`), found as `price(for:)` finds
    /// its price; nil when the table names none.
    package func provider(for model: String) -> String? {
        if let p = providers[model] { return p }
        for (name, p) in providers.sorted(by: { $0.key < $1.key }) where name.hasSuffix("/" + model) || model.hasSuffix("/" + name) {
            return p
        }
        return nil
    }

    /// Reads a LiteLLM-format price file as is: a JSON object of models, each with
    /// `input_cost_per_token` and `output_cost_per_token`; entries without both are skipped.
    package static func load(path: String) throws -> PriceTable {
        let data = try InputFile.contents(of: path)
        return try decode(data, file: InputFile.name(path))
    }

    /// The largest cost per token a price file may give: $1, a million times the dearest
    /// published model's, and far below where a month's cost would overflow.
    package static let maxCostPerToken = 1.0

    /// Decodes LiteLLM-format JSON.
    package static func decode(_ data: Data, file: String) throws -> PriceTable {
        let data = JSONSyntax.withoutByteOrderMark(data)
        if data.isEmpty { throw WidgetQuotaError.emptyInput(file: file) }
        try WidgetQuotaError.checkJSONSyntax(data, file: file)
        // A typed tree, so that `true` is a boolean and never a cost of 1.
        let tree = try JSONValue.parse(data, file: file)
        guard case .object(let models) = tree else {
            throw WidgetQuotaError.malformedInput(
                file: file, line: nil, problem: "expected a JSON object of models, as LiteLLM's model_prices_and_context_window.json")
        }
        var prices = [String: Price]()
        var providers = [String: String]()
        for (name, value) in models {
            guard case .object(let entry) = value else { continue }
            for key in ["input_cost_per_token", "output_cost_per_token"] {
                if case .bool(let flag) = entry[key] {
                    throw WidgetQuotaError.malformedInput(
                        file: file, line: nil, problem: "\(name): \(key) must be a number of dollars, got \(flag)")
                }
            }
            guard let input = entry["input_cost_per_token"]?.number, let output = entry["output_cost_per_token"]?.number else { continue }
            guard input.isFinite, output.isFinite, input >= 0, output >= 0 else {
                throw WidgetQuotaError.malformedInput(
                    file: file, line: nil, problem: "\(name): costs per token must be finite and not negative")
            }
            // A month's cost multiplies the price by up to ~10²⁴ tokens (a billion users); a price
            // far beyond any model's would print $Infinity, so it is refused as a unit mistake.
            guard input <= maxCostPerToken, output <= maxCostPerToken else {
                throw WidgetQuotaError.malformedInput(
                    file: file, line: nil,
                    problem: "\(name): a cost of \(String(format: "%g", max(input, output))) $ a token is beyond any model's "
                        + "(at most \(NumberText.plain(maxCostPerToken)) $ a token, $1,000,000 per 1M tokens); "
                        + "costs are in dollars per token, not per 1M tokens")
            }
            prices[name] = Price(inputCostPerToken: input, outputCostPerToken: output)
            if let provider = entry["litellm_provider"]?.string, !provider.isEmpty { providers[name] = provider }
        }
        guard !prices.isEmpty else {
            throw WidgetQuotaError.malformedInput(
                file: file, line: nil, problem: "no model has both input_cost_per_token and output_cost_per_token")
        }
        return PriceTable(prices: prices, source: "price file \(URL(fileURLWithPath: file).lastPathComponent)", providers: providers)
    }
}
