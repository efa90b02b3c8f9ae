import Foundation
import GeoNewsHeadlines

/// The provider response parsers over fuzzed bodies (through the package-level
/// `ProviderAnswers`, so that this target builds in release too). Any body gives articles or a `HeadlineError`; every article has a non-empty title and a
/// URL with a scheme (what the parsers promise: they drop items without one); decoding the
/// same body twice gives the same answer.
enum HeadlineResponseProperties {
    private static let answerURL = URL(string: "https://example.org/answer")!
    private static let key = APIKey("fuzz-key-0123456789")!

    static func checkRSS(_ input: [UInt8]) {
        expect("rss", input) { body in try ProviderAnswers.rss(body) }
    }

    static func checkNewsAPI(_ input: [UInt8]) {
        expect("newsapi", input) { body in try ProviderAnswers.newsAPI(body, key: key) }
    }

    static func checkGNews(_ input: [UInt8]) {
        expect("gnews", input) { body in try ProviderAnswers.gnews(body, key: key) }
    }

    /// GDELT also mends bad escapes: the repair is idempotent and either the mended body is
    /// JSON or the decoder says `malformedResponse`.
    static func checkGDELT(_ input: [UInt8]) {
        let body = Data(input)
        let once = ProviderAnswers.gdeltRepairingEscapes(body)
        if ProviderAnswers.gdeltRepairingEscapes(once) != once { violated("gdelt: repairing escapes twice changed the body") }
        expect("gdelt", input) { body in
            try ProviderAnswers.gdelt(body).map { wire in
                // The wire articles keep what GDELT sent; the article mapping is what drops.
                guard let title = wire.title?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty,
                    let link = wire.url, let url = URL(string: link), url.scheme != nil
                else { return Article(title: "-", url: answerURL, publishedAt: nil, provider: .gdelt) }
                return Article(title: title, url: url, publishedAt: nil, provider: .gdelt)
            }
        }
    }

    /// Decodes `input` as a 200 answer twice and checks the articles, or that the failure is
    /// a `HeadlineError` with a message, the same both times.
    private static func expect(_ what: String, _ input: [UInt8], _ decode: (Data) throws -> [Article]) {
        let response = Data(input)
        let first = outcome(what, response, decode)
        let second = outcome(what, response, decode)
        if first != second { violated("\(what): two decodings of the same body differ: \(first) / \(second)") }
        guard case .articles(let articles) = first else { return }
        for article in articles {
            if article.title.isEmpty { violated("\(what): an article without a title") }
            if article.url.scheme == nil { violated("\(what): an article whose url \(article.url) has no scheme") }
        }
    }

    private enum Outcome: Equatable {
        case articles([Article])
        case failure(HeadlineError)
    }

    private static func outcome(_ what: String, _ response: Data, _ decode: (Data) throws -> [Article]) -> Outcome {
        do {
            return .articles(try decode(response))
        } catch let error as HeadlineError {
            if error.description.isEmpty { violated("\(what): an error without a message") }
            return .failure(error)
        } catch {
            violated("\(what): an untyped error \(error)")
        }
    }
}
