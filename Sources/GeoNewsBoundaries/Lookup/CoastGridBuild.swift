import GeoNewsGeodesy
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``CoastGrid`` built on a thread of its own, so that a batch does not wait for it: rows
/// resolved before it is done take the root grid's coarser flag and the search, and give the
/// same answers (the grid changes only the cost).
public final class CoastGridBuild: Sendable {
    /// The finished grid's words, 0 until then; published once, with release ordering, after
    /// every word is written.
    private let words = Atomic<Int>(0)
    /// Keeps the finished grid, and so its words, alive as long as this.
    private let grid = Mutex<CoastGrid?>(nil)

    private init() {}

    /// Starts building the grid of `index` on a new thread.
    public static func start(_ index: CountryIndex) -> CoastGridBuild {
        let build = CoastGridBuild()
        let job = Unmanaged.passRetained(BuildJob(build: build, index: index)).toOpaque()
        var thread = pthread_t()
        if pthread_create(&thread, nil, runBuildJob, job) == 0 {
            pthread_detach(thread)
        } else {
            _ = runBuildJob(job)  // no thread to spare: build it here
        }
        return build
    }

    /// The grid once it is built, for tests and callers that can wait.
    public func waitForGrid() -> CoastGrid {
        while true {
            if let g = grid.withLock({ $0 }) { return g }
            usleep(1000)
        }
    }

    fileprivate func publish(_ g: CoastGrid) {
        grid.withLock { $0 = g }
        words.store(Int(bitPattern: g.bits), ordering: .releasing)
    }

    /// ``CoastGrid/mayBeNearShore(_:)``, or true before the grid is built.
    @inline(__always)
    public func mayBeNearShore(_ p: Coordinate) -> Bool {
        guard let w = finished else { return true }
        return CoastGrid.mayBeNearShore(p, in: w)
    }

    /// ``CoastGrid/certainlyNearLand(_:)``, or false before the grid is built.
    @inline(__always)
    public func certainlyNearLand(_ p: Coordinate) -> Bool {
        guard let w = finished else { return false }
        return CoastGrid.certainlyNearLand(p, in: w)
    }

    /// Where the answer for `p` lies, once the grid is built.
    @inline(__always)
    func address(of p: Coordinate) -> UnsafeRawPointer? {
        finished.flatMap { CoastGrid.address(of: p, in: $0) }
    }

    @inline(__always)
    private var finished: UnsafePointer<UInt64>? {
        UnsafePointer(bitPattern: words.load(ordering: .acquiring))
    }
}

/// A new thread's work: takes its ``BuildJob`` back, builds the grid and publishes it.
private func runBuildJob(_ job: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let job = Unmanaged<BuildJob>.fromOpaque(job!).takeRetainedValue()
    job.build.publish(CoastGrid(job.index))
    return nil
}

/// What a new thread builds and where it publishes it, passed to it as one retained object.
private final class BuildJob {
    let build: CoastGridBuild
    let index: CountryIndex
    init(build: CoastGridBuild, index: CountryIndex) {
        self.build = build
        self.index = index
    }
}
