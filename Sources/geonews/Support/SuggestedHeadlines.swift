import GeoNewsJSON

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The headlines `geonews --lat … --lon …` shows for the suggested country, fetched by running
/// `geonews-news headlines` (which links the networking stack this executable leaves out).
struct SuggestedHeadlines {
    /// Lowercase ISO 3166-1 alpha-2 code of the suggested news country.
    let country: String
    /// Articles wanted, 1…100.
    let limit: Int
    /// A validated, lowercase category name, or `nil` for all topics.
    let category: String?
    /// A validated, comma-separated provider order, or `nil` for the configured one.
    let providers: String?
    /// `false` for `--no-cache`.
    let useCache: Bool
    /// The `geonews-news headlines` options that ask for local headlines (`--near LAT,LON` or
    /// `--region CODE`) in place of `--country`; empty for the country's front page.
    var local: [String] = []

    /// What came back: the `--json` object or the text listing, warnings to pass on, and on
    /// failure the one-line reason.
    struct Answer {
        /// The `headlines` member of the JSON report (only when fetched as JSON).
        var json: JSONValue?
        /// The numbered listing, empty when there are no articles (only when fetched as text).
        var listing = ""
        /// Standard-error lines of `geonews-news` that are warnings (a stale cache), as printed.
        var warnings: [String] = []
        /// Why there are no headlines; `nil` on success.
        var error: String?
    }

    private static let prefix = "geonews: "

    /// Runs `geonews-news headlines` for the JSON object (`asJSON`) or the text listing.
    func fetch(asJSON: Bool) async -> Answer {
        var arguments = ["headlines"] + (local.isEmpty ? ["--country", country] : local) + ["--limit", String(limit)]
        if let category { arguments += ["--category", category] }
        if let providers { arguments += ["--provider", providers] }
        if !useCache { arguments.append("--no-cache") }
        arguments += asJSON ? ["--json"] : ["--listing-title", "Headlines"]

        var answer = Answer()
        let run: NewsExecutable.Run
        do {
            run = try await NewsExecutable.run(arguments: arguments)
        } catch {
            return failed(answer, reason: "\(error)", asJSON: asJSON)
        }
        var reason: String?
        for line in run.standardError.split(separator: "\n").map(String.init) where !line.isEmpty {
            if line.hasPrefix(Self.prefix + "warning: ") {
                answer.warnings.append(line)
            } else {
                reason = line.hasPrefix(Self.prefix) ? String(line.dropFirst(Self.prefix.count)) : line
            }
        }
        if run.status != 0 {
            answer.json = asJSON ? try? JSONDecoder().decode(JSONValue.self, from: run.standardOutput) : nil
            return failed(answer, reason: reason ?? "geonews-news exited with status \(run.status)", asJSON: asJSON)
        }
        guard asJSON else {
            answer.listing = String(decoding: run.standardOutput, as: UTF8.self)
            return answer
        }
        do {
            answer.json = try JSONDecoder().decode(JSONValue.self, from: run.standardOutput)
        } catch {
            return failed(answer, reason: "geonews-news printed no readable JSON: \(error)", asJSON: asJSON)
        }
        return answer
    }

    /// `answer` with `reason`, and with the JSON form of a failure when `geonews-news` gave none.
    private func failed(_ answer: Answer, reason: String, asJSON: Bool) -> Answer {
        var answer = answer
        answer.error = reason
        var childObject = false
        if case .object? = answer.json { childObject = true }
        if asJSON && !childObject {
            var members: [String: JSONValue] = [
                "provider": .null, "country": .string(country), "articles": .array([]), "error": .string(reason),
            ]
            if let category { members["category"] = .string(category) }
            answer.json = .object(members)
        }
        return answer
    }
}
