/// The centre of a cluster: the count-weighted mean of its children, in Web Mercator units.
///
/// Summed in child order (the seed first), so that the build and the invariant check round
/// alike. When the map wraps, each child is taken on the seed's side of the antimeridian and
/// the mean is brought back into 0..<1.
struct WeightedCentre {
    private let seedX: Double
    private let wraps: Bool
    private var weightedX: Double
    private var weightedY: Double
    /// Points in the cluster so far.
    private(set) var count: Int

    init(x: Double, y: Double, count: UInt32, wraps: Bool) {
        let weight = Double(count)
        seedX = x
        self.wraps = wraps
        weightedX = x * weight
        weightedY = y * weight
        self.count = Int(count)
    }

    @inline(__always)
    mutating func add(x: Double, y: Double, count: UInt32) {
        let weight = Double(count)
        var x = x
        if wraps { x = x - seedX > 0.5 ? x - 1 : (seedX - x > 0.5 ? x + 1 : x) }
        weightedX += x * weight
        weightedY += y * weight
        self.count += Int(count)
    }

    var position: (x: Double, y: Double) {
        var x = weightedX / Double(count)
        if wraps { x = x < 0 ? x + 1 : (x >= 1 ? x - 1 : x) }
        return (x, weightedY / Double(count))
    }
}
