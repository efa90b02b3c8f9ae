import Foundation
import GeoNewsBoundaries
import GeoNewsGeodesy
import XCTest

/// One resolver shared by threads without a lock (run under ThreadSanitizer by
/// Scripts/sanitize): every thread gets exactly the answers a single thread gets.
final class ConcurrentResolutionTests: XCTestCase {
    func testOneResolverSharedByFourThreadsGivesTheSingleThreadAnswers() throws {
        // Without the nearest-land search at sea, whose cost in a debug build would dominate;
        // the index and catalogue shared are the same.
        let resolver = try CountryResolver.load(from: TestData.directory, options: .batch)
        // A 2° grid over the whole world: land, sea, borders, both poles and the antimeridian.
        let grid = stride(from: -90.0, through: 90.0, by: 2).flatMap { lat in
            stride(from: -180.0, through: 180.0, by: 2).map { Coordinate(latitude: lat, longitude: $0) }
        }
        let expected = grid.map { resolver.resolve($0) }
        let threads = 4
        let results = ThreadResults(count: threads)
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            // Each thread walks the grid from a different starting point.
            let offset = t * grid.count / threads
            var answers = [Resolution?](repeating: nil, count: grid.count)
            for k in 0..<grid.count {
                let i = (k + offset) % grid.count
                answers[i] = resolver.resolve(grid[i])
            }
            results.store(answers.map { $0! }, at: t)
        }
        for t in 0..<threads {
            XCTAssertEqual(results.answers(of: t), expected, "thread \(t)")
        }
        XCTAssertTrue(expected.contains { $0.country == nil } && expected.contains { $0.country?.iso2 == "FR" })
    }
}

/// Each thread's answers, written once per thread under a lock.
private final class ThreadResults: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [[Resolution]]

    init(count: Int) { storage = Array(repeating: [], count: count) }

    func store(_ answers: [Resolution], at thread: Int) {
        lock.lock()
        storage[thread] = answers
        lock.unlock()
    }

    func answers(of thread: Int) -> [Resolution] {
        lock.lock()
        defer { lock.unlock() }
        return storage[thread]
    }
}
