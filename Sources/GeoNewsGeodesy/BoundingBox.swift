/// An axis-aligned box on the map in WGS 84 degrees: longitudes `west` to `east`, latitudes
/// `south` to `north`.
///
/// `west > east` means the box crosses the antimeridian: it runs east from `west` to 180° and
/// on from −180° to `east` (a box over Fiji is `west: 177, east: -178`). No check is made on
/// construction, so that hot loops pay nothing; what a box outside −180…180 or −90…90 means
/// is for its user to say (a cluster query treats 360° or wider as the whole world and clamps
/// latitudes, for example).
public struct BoundingBox: Hashable, Sendable {
    /// Western edge, degrees east of Greenwich.
    public var west: Double
    /// Southern edge, degrees north of the equator.
    public var south: Double
    /// Eastern edge, degrees east of Greenwich; below `west` when the box crosses the
    /// antimeridian.
    public var east: Double
    /// Northern edge, degrees north of the equator.
    public var north: Double

    @inlinable
    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }
}
