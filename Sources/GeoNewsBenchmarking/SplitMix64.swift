import GeoNewsGeodesy

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small seedable generator (SplitMix64, Steele, Lea & Flood 2014), so that every run with the
/// same seed draws the same points: the benchmark suites, `geonews bench cluster` and the
/// exactness tests all draw from this one.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The whole state; each draw advances it by the golden-ratio step.
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `lo..<hi`, from the top 53 bits of one draw (every double of the unit interval
    /// that a 53-bit mantissa holds, equally likely).
    public mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
        lo + (hi - lo) * Double(next() >> 11) / Double(UInt64(1) << 53)
    }

    /// A position uniform over the sphere's area: latitude by the inverse sine of a uniform
    /// variate, then longitude uniform in −180…180 degrees.
    public mutating func onSphere() -> Coordinate {
        Coordinate(latitude: asin(uniform(-1, 1)) * 180 / .pi, longitude: uniform(-180, 180))
    }
}

/// The seed of a randomized test's draws: `GEONEWS_TEST_SEED` when set, else a fresh one per
/// run. Each test that draws names the seed on standard output before its first draw (a trap
/// would end the run before any failure message could), so a failed run is drawn again with
/// `GEONEWS_TEST_SEED=N swift test --filter TheTest`.
public enum TestRandom {
    public static let seed: UInt64 =
        getenv("GEONEWS_TEST_SEED").flatMap { UInt64(String(cString: $0)) } ?? UInt64.random(in: 0...UInt64.max)

    /// A generator from ``seed``, named on standard output first.
    public static func generator(for test: String) -> SplitMix64 {
        print("\(test): random draws from seed \(seed) (GEONEWS_TEST_SEED=\(seed) draws them again)")
        return SplitMix64(seed: seed)
    }
}
