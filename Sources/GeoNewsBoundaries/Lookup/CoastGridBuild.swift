import GeoNewsGeodesy

/// A ``CoastGrid`` built on a thread of its own (a ``TableBuild``): rows resolved before it is
/// done take the root grid's coarser flag and the search, and give the same answers.
public final class CoastGridBuild: Sendable {
    private let build: TableBuild<CoastGrid>

    private init(_ build: TableBuild<CoastGrid>) { self.build = build }

    /// The grid of `index`, built on a thread of its own from its first lookup.
    public convenience init(_ index: CountryIndex) {
        self.init(TableBuild({ CoastGrid(index) }, storage: { UnsafeRawBufferPointer($0.block) }))
    }

    /// The grid once it is built, for tests and callers that can wait.
    public func waitForGrid() -> CoastGrid { build.waitForTable() }

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

    /// Where what answers for `p` lies, once the grid is built (``CoastGrid/addresses(of:in:)``).
    @inline(__always)
    func addresses(of p: Coordinate) -> (bits: UnsafeRawPointer, edgeCells: UnsafeRawPointer)? {
        finished.flatMap { CoastGrid.addresses(of: p, in: $0) }
    }

    @inline(__always)
    private var finished: UnsafeBufferPointer<UInt64>? {
        build.finished?.assumingMemoryBound(to: UInt64.self)
    }
}
