import Foundation

/// The providers that the latest request could not reach at all (its host name not found, the
/// connection refused, no network), remembered for a few seconds: a request in that time fails
/// at once with the same error, or is served a stale cache entry, instead of trying, retrying
/// and waiting for the provider's rate-limit turn again. Offline, `geonews --lat --lon` asks
/// Google News and GDELT for the town, the region and the country in turn, and waited 16–18 s
/// (GDELT's turns, five seconds apart) before it said it had no headlines.
actor UnreachableProviders {
    private var failures: [NewsProvider: (until: Double, error: HeadlineError)] = [:]
    /// How long a failure is given again without trying (the request timeout by default).
    let seconds: Double

    init(seconds: Double) { self.seconds = seconds }

    /// The error of the latest request that could not reach `provider`, while it is remembered.
    func error(for provider: NewsProvider) -> HeadlineError? {
        guard let failure = failures[provider], RequestPacer.now() < failure.until else { return nil }
        return failure.error
    }

    /// Remembers `error` for `provider` when no request reached it; forgets it on any answer.
    func record(_ outcome: Result<Void, HeadlineError>, for provider: NewsProvider) {
        switch outcome {
        case .failure(let error) where HTTPTransport.neverReached(error):
            failures[provider] = (RequestPacer.now() + seconds, error)
        case .success:
            failures[provider] = nil
        case .failure:
            break
        }
    }
}
