/// One layer of a Mapbox Vector Tile 2.1 (https://github.com/mapbox/vector-tile-spec/tree/master/2.1)
/// holding point features, written as the protobuf the spec's `vector_tile.proto` describes.
///
/// Keys and values are shared through the layer's tables, each written once; geometry is one
/// `MoveTo` per point, zigzag-encoded. Only what clustered points need is here: points, and
/// string, unsigned integer and boolean values.
struct VectorTileLayer {
    /// A property value; the cases are the `Value` message's fields used here.
    enum Value: Hashable {
        case string(String)
        case unsigned(UInt64)
        case bool(Bool)
    }

    let name: String
    /// The tile's width and height in geometry units.
    let extent: UInt32
    private var features: [UInt8] = []
    private var keys: [String] = []
    private var keyIndex: [String: UInt32] = [:]
    private var values: [Value] = []
    private var valueIndex: [Value: UInt32] = [:]
    /// Bytes the key and value tables take in the encoded layer.
    private var tableBytes = 0

    init(name: String, extent: UInt32) {
        self.name = name
        self.extent = extent
    }

    var isEmpty: Bool { features.isEmpty }

    /// Bytes this layer adds to a tile: the `Layer` message and its field key and length.
    var tileBytes: Int {
        let nameBytes = name.utf8.count
        let layer =
            2 + 1 + ProtobufWriter.varintLength(UInt64(nameBytes)) + nameBytes + features.count + tableBytes
            + 1 + ProtobufWriter.varintLength(UInt64(extent))
        return layer + 1 + ProtobufWriter.varintLength(UInt64(layer))
    }

    /// Adds a point as ``addPoint(x:y:id:properties:)`` does if the layer then still takes at
    /// most `budget` bytes of a tile (``tileBytes``); otherwise leaves the layer as it was and
    /// returns false.
    mutating func addPoint(x: Int, y: Int, id: UInt64?, properties: [(String, Value)], within budget: Int) -> Bool {
        let saved = (features: features.count, keys: keys.count, values: values.count, tableBytes: tableBytes)
        addPoint(x: x, y: y, id: id, properties: properties)
        if tileBytes <= budget { return true }
        features.removeSubrange(saved.features...)
        for key in keys[saved.keys...] { keyIndex[key] = nil }
        keys.removeSubrange(saved.keys...)
        for value in values[saved.values...] { valueIndex[value] = nil }
        values.removeSubrange(saved.values...)
        tableBytes = saved.tableBytes
        return false
    }

    /// Adds a point at (`x`, `y`) in tile units (0…extent, outside in the buffer) with
    /// `properties` in their order, and `id` when it has one.
    mutating func addPoint(x: Int, y: Int, id: UInt64?, properties: [(String, Value)]) {
        var feature = ProtobufWriter()
        if let id { feature.varintField(1, id) }
        var tags = ProtobufWriter()
        for (key, value) in properties {
            tags.varint(UInt64(index(ofKey: key)))
            tags.varint(UInt64(index(of: value)))
        }
        feature.bytesField(2, tags.bytes)
        feature.varintField(3, 1)  // GeomType.POINT
        var geometry = ProtobufWriter()
        geometry.varint(UInt64(Self.command(id: 1, count: 1)))  // MoveTo, one point
        geometry.varint(UInt64(Self.zigzag(Int64(x))))
        geometry.varint(UInt64(Self.zigzag(Int64(y))))
        feature.bytesField(4, geometry.bytes)
        var writer = ProtobufWriter()
        writer.bytesField(2, feature.bytes)
        features += writer.bytes
    }

    /// The encoded `Layer` message.
    var bytes: [UInt8] {
        var layer = ProtobufWriter()
        layer.varintField(15, 2)  // version
        layer.stringField(1, name)
        layer.bytes += features
        for key in keys { layer.stringField(3, key) }
        for value in values { layer.bytesField(4, Self.message(of: value)) }
        layer.varintField(5, UInt64(extent))
        return layer.bytes
    }

    /// A whole tile of these layers: each is field 3 of the `Tile` message.
    static func tile(_ layers: [VectorTileLayer]) -> [UInt8] {
        var tile = ProtobufWriter()
        for layer in layers where !layer.isEmpty { tile.bytesField(3, layer.bytes) }
        return tile.bytes
    }

    /// The `Value` message of a property value.
    private static func message(of value: Value) -> [UInt8] {
        var v = ProtobufWriter()
        switch value {
        case .string(let s): v.stringField(1, s)
        case .unsigned(let u): v.varintField(5, u)
        case .bool(let b): v.varintField(7, b ? 1 : 0)
        }
        return v.bytes
    }

    private mutating func index(ofKey key: String) -> UInt32 {
        if let i = keyIndex[key] { return i }
        let i = UInt32(keys.count)
        keys.append(key)
        keyIndex[key] = i
        tableBytes += 1 + ProtobufWriter.varintLength(UInt64(key.utf8.count)) + key.utf8.count
        return i
    }

    private mutating func index(of value: Value) -> UInt32 {
        if let i = valueIndex[value] { return i }
        let i = UInt32(values.count)
        values.append(value)
        valueIndex[value] = i
        let length = Self.message(of: value).count
        tableBytes += 1 + ProtobufWriter.varintLength(UInt64(length)) + length
        return i
    }

    /// A geometry command integer: the command id in the low 3 bits, the count above them.
    static func command(id: UInt32, count: UInt32) -> UInt32 { (id & 0x7) | (count << 3) }

    /// Zigzag encoding: small magnitudes of either sign become small unsigned numbers.
    static func zigzag(_ n: Int64) -> UInt64 { UInt64(bitPattern: (n << 1) ^ (n >> 63)) }
}

/// The protobuf wire format, as far as vector tiles need it: varints and length-delimited fields.
struct ProtobufWriter {
    var bytes: [UInt8] = []

    /// The bytes ``varint(_:)`` writes for `value`.
    static func varintLength(_ value: UInt64) -> Int {
        value == 0 ? 1 : (64 - value.leadingZeroBitCount + 6) / 7
    }

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// A field key: the field number and the wire type (0 varint, 2 length-delimited).
    mutating func key(_ field: Int, wireType: Int) { varint(UInt64(field << 3 | wireType)) }

    mutating func varintField(_ field: Int, _ value: UInt64) {
        key(field, wireType: 0)
        varint(value)
    }

    mutating func bytesField(_ field: Int, _ payload: [UInt8]) {
        key(field, wireType: 2)
        varint(UInt64(payload.count))
        bytes += payload
    }

    mutating func stringField(_ field: Int, _ text: String) { bytesField(field, Array(text.utf8)) }
}
