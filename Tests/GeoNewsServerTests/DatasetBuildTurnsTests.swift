import Foundation
import GeoNewsDatasets
import Synchronization
import XCTest

@testable import GeoNewsServer

/// The turns of the uploads' builds: at most `capacity` at once, the others waiting in order,
/// each until its patience runs out or its task is cancelled.
final class DatasetBuildTurnsTests: XCTestCase {
    /// The waiters in the order they had their turns.
    final class Served: Sendable {
        let order = Mutex<[Int]>([])
    }

    /// Waits (at most 10 s) until `condition` holds.
    func until(_ condition: () -> Bool, file: StaticString = #filePath, line: UInt = #line) async throws {
        for _ in 0..<1000 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertTrue(condition(), "not within 10 s", file: file, line: line)
    }

    func testPastTheCapacityUploadsWaitInTheOrderTheyCameAndTakeTheTurnsGivenBack() async throws {
        let turns = DatasetBuildTurns(capacity: 2, patience: .seconds(60))
        let first = await turns.begin(), second = await turns.begin()
        XCTAssertTrue(first && second)
        XCTAssertEqual(turns.load.running, 2)
        let served = Served()
        var waiting: [Task<Bool, Never>] = []
        for i in 0..<3 {
            waiting.append(
                Task {
                    let turn = await turns.begin()
                    served.order.withLock { $0.append(i) }
                    return turn
                })
            try await until { turns.load.waiting == i + 1 }
        }
        XCTAssertEqual(turns.load.running, 2, "no third build while two run")
        turns.finish()
        try await until { served.order.withLock { $0 } == [0] }
        XCTAssertEqual(turns.load.running, 2, "the turn went to the first waiter")
        XCTAssertEqual(turns.load.waiting, 2)
        turns.finish()
        turns.finish()
        try await until { served.order.withLock { $0 } == [0, 1, 2] }
        for task in waiting {
            let turn = await task.value
            XCTAssertTrue(turn)
        }
        turns.finish()
        turns.finish()
        XCTAssertEqual(turns.load.running, 0)
        XCTAssertEqual(turns.load.waiting, 0)
    }

    func testAnUploadThatWaitsPastItsPatienceHasNoTurnAndLeavesTheQueue() async throws {
        let turns = DatasetBuildTurns(capacity: 1, patience: .milliseconds(200))
        let held = await turns.begin()
        XCTAssertTrue(held)
        let late = await turns.begin()
        XCTAssertFalse(late)
        XCTAssertEqual(turns.load.running, 1)
        XCTAssertEqual(turns.load.waiting, 0)
        turns.finish()
        let next = await turns.begin()
        XCTAssertTrue(next, "a free turn is taken at once")
        turns.finish()
        XCTAssertEqual(turns.load.running, 0)
    }

    func testWithNoPatienceAFreeTurnIsStillTaken() async {
        let turns = DatasetBuildTurns(capacity: 1, patience: .zero)
        let first = await turns.begin()
        let second = await turns.begin()
        XCTAssertEqual([first, second], [true, false])
        turns.finish()
        XCTAssertEqual(turns.load.running, 0)
    }

    func testACancelledWaitLeavesTheQueueAndTakesNoTurn() async throws {
        let turns = DatasetBuildTurns(capacity: 1, patience: .seconds(60))
        let held = await turns.begin()
        XCTAssertTrue(held)
        let waiter = Task { await turns.begin() }
        try await until { turns.load.waiting == 1 }
        waiter.cancel()
        let got = await waiter.value
        XCTAssertFalse(got)
        XCTAssertEqual(turns.load.waiting, 0)
        turns.finish()
        XCTAssertEqual(turns.load.running, 0, "the turn given back went to no one")

        // Cancelled before it queued: it does not wait.
        let busy = await turns.begin()
        XCTAssertTrue(busy)
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await turns.begin()
        }
        let earlyTurn = await early.value
        XCTAssertFalse(earlyTurn)
        turns.finish()
        XCTAssertEqual(turns.load.running, 0)
    }
}
