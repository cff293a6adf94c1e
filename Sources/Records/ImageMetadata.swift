/// Where and when a photo was taken, and with what: the EXIF (or XMP) fields a sweep needs.
/// Every field is optional; a record carries only those the file has.
public struct ImageMetadata: Sendable, Equatable {
    /// DateTimeOriginal as ISO 8601 (`2023-07-14T10:32:05+02:00`), with the offset only when
    /// the file records one (OffsetTimeOriginal) and fractional seconds when SubSecTimeOriginal is set.
    public var captureTime: String?
    public var cameraMake: String?
    public var cameraModel: String?
    public var gps: GPSPosition?
    public var software: String?

    public init(
        captureTime: String? = nil, cameraMake: String? = nil, cameraModel: String? = nil,
        gps: GPSPosition? = nil, software: String? = nil
    ) {
        self.captureTime = captureTime; self.cameraMake = cameraMake; self.cameraModel = cameraModel
        self.gps = gps; self.software = software
    }

    public var isEmpty: Bool { captureTime == nil && cameraMake == nil && cameraModel == nil && gps == nil && software == nil }
}

/// A GPS fix in signed decimal degrees (south and west negative); altitude in metres, negative below sea level.
public struct GPSPosition: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?
    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude; self.longitude = longitude; self.altitude = altitude
    }
}
