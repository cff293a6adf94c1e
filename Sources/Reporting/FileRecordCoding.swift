import Records

/// The record's public JSON shape (docs/schema/record.schema.json): `CodingKeys` lists the
/// fields in output order with their JSON names, and both directions go through every key in
/// one exhaustive switch, so a new key does not compile until it is written and read. The
/// worker's reply, the JSON and JSONL sinks, `--resume`, `merge`, `summarize`, `report` and
/// `check` all read and write it through this conformance. Empty lists (`pages`, `sequences`,
/// `warnings`) and absent values are left out; `mtime` is printed to the millisecond (the worker
/// wire keeps every digit, `RecordStyle.exact`). A property without a key is not in the JSON
/// (`RecordSchemaTests` fails when one is added without its key or its schema entry).
extension FileRecord: Codable {
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case path, exactPath = "path_b64", member, location, status, format, width, height, orientation, frames, container, video, pages, codes, sequences,
            error,
            warnings
        case failedDecoder = "failed_decoder", size, mtime, hashes, metadata, timings = "timings_ms"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        for key in CodingKeys.allCases {
            switch key {
            case .path: try c.encode(path, forKey: key)
            case .exactPath: try c.encodeIfPresent(exactPath.map(Base64Bytes.init), forKey: key)
            case .member: if !member.isEmpty { try c.encode(member, forKey: key) }
            case .location: if !member.isEmpty { try c.encode(location, forKey: key) }
            case .status: try c.encode(status, forKey: key)
            case .format: try c.encodeIfPresent(format, forKey: key)
            case .width: try c.encodeIfPresent(width, forKey: key)
            case .height: try c.encodeIfPresent(height, forKey: key)
            case .orientation: try c.encodeIfPresent(orientation, forKey: key)
            case .frames: try c.encodeIfPresent(frames, forKey: key)
            case .container: try c.encodeIfPresent(container, forKey: key)
            case .video: try c.encodeIfPresent(video, forKey: key)
            case .pages: if !pages.isEmpty { try c.encode(pages, forKey: key) }
            case .codes: try c.encode(codes, forKey: key)
            case .sequences: if !sequences.isEmpty { try c.encode(sequences, forKey: key) }
            case .error: try c.encodeIfPresent(error, forKey: key)
            case .warnings: if !warnings.isEmpty { try c.encode(warnings, forKey: key) }
            case .failedDecoder: try c.encodeIfPresent(failedDecoder, forKey: key)
            case .size: try c.encodeIfPresent(size, forKey: key)
            case .mtime: try c.encodeIfPresent(mtime.map { RecordStyle.of(encoder).round($0, 3) }, forKey: key)
            case .hashes: try c.encodeIfPresent(hashes, forKey: key)
            case .metadata: try c.encodeIfPresent(metadata, forKey: key)
            case .timings: try c.encodeIfPresent(timings, forKey: key)
            }
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(path: try c.decode(String.self, forKey: .path))
        for key in CodingKeys.allCases {
            switch key {
            case .path: break
            case .exactPath: exactPath = try c.decodeIfPresent(Base64Bytes.self, forKey: key)?.bytes
            case .member: member = try c.decodeIfPresent([MemberLink].self, forKey: key) ?? []
            case .location: break  // made from path and member
            case .status: break  // after `error`, whose setting sets it
            case .format: format = try c.decodeIfPresent(ImageFormat.self, forKey: key)
            case .width: width = try c.decodeIfPresent(Int.self, forKey: key)
            case .height: height = try c.decodeIfPresent(Int.self, forKey: key)
            case .orientation: orientation = try c.decodeIfPresent(Int.self, forKey: key)
            case .frames: frames = try c.decodeIfPresent(Int.self, forKey: key)
            case .container: container = try c.decodeIfPresent(ContainerSummary.self, forKey: key)
            case .video: video = try c.decodeIfPresent(VideoSummary.self, forKey: key)
            case .pages: pages = try c.decodeIfPresent([PageRender].self, forKey: key) ?? []
            case .codes: codes = try c.decode([DetectedCode].self, forKey: key)
            case .sequences: sequences = try c.decodeIfPresent([RecordSequence].self, forKey: key) ?? []
            case .error: error = try c.decodeIfPresent(RecordError.self, forKey: key)
            case .warnings: warnings = try c.decodeIfPresent([String].self, forKey: key) ?? []
            case .failedDecoder: failedDecoder = try c.decodeIfPresent(String.self, forKey: key)
            case .size: size = try c.decodeIfPresent(Int.self, forKey: key)
            case .mtime: mtime = try c.decodeIfPresent(Double.self, forKey: key)
            case .hashes: hashes = try c.decodeIfPresent([String: String].self, forKey: key)
            case .metadata: metadata = try c.decodeIfPresent(ImageMetadata.self, forKey: key)
            case .timings: timings = try c.decodeIfPresent(RecordTimings.self, forKey: key)
            }
        }
        status = try c.decode(RecordStatus.self, forKey: .status)
    }
}

extension RecordStatus: Codable {}

/// A member link's JSON: `{"index": 3, "name": "word/media/image1.png"}`, with `name_b64` (the
/// exact bytes) when the name is not valid UTF-8, as a path has `path_b64`.
extension MemberLink: Codable {
    enum CodingKeys: String, CodingKey { case index, name, exactName = "name_b64" }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(index, forKey: .index)
        try c.encode(name, forKey: .name)
        try c.encodeIfPresent(exactName.map(Base64Bytes.init), forKey: .exactName)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .name)
        self.init(
            index: try c.decode(Int.self, forKey: .index), nameBytes: try c.decodeIfPresent(Base64Bytes.self, forKey: .exactName)?.bytes ?? Array(name.utf8))
    }
}

/// A container's summary: `{"format": "zip", "detail": ..., "members": n, "read": n, "skipped": n, "failed": n, "unpacked_bytes": n}`.
extension ContainerSummary: Codable {
    enum CodingKeys: String, CodingKey { case format, detail, members, read, skipped, failed, unpackedBytes = "unpacked_bytes" }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(format, forKey: .format)
        try c.encodeIfPresent(detail, forKey: .detail)
        try c.encode(members, forKey: .members)
        try c.encode(read, forKey: .read)
        try c.encode(skipped, forKey: .skipped)
        try c.encode(failed, forKey: .failed)
        try c.encode(unpackedBytes, forKey: .unpackedBytes)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(format: try c.decode(String.self, forKey: .format))
        detail = try c.decodeIfPresent(String.self, forKey: .detail)
        members = try c.decode(Int.self, forKey: .members)
        read = try c.decode(Int.self, forKey: .read)
        skipped = try c.decode(Int.self, forKey: .skipped)
        failed = try c.decode(Int.self, forKey: .failed)
        unpackedBytes = try c.decode(Int.self, forKey: .unpackedBytes)
    }
}

/// A video's summary: `{"container": "mov,mp4,m4a,3gp,3g2,mj2", "codec": "h264", "width": 720,
/// "height": 1280, "rotation": 90, "bit_depth": 8, "duration": 3.0, "frame_rate": 25,
/// "interval": 0.25, "samples": 12, "frames_read": 5, "seconds_read": 2.75, "capped": false}`.
extension VideoSummary: Codable {
    enum CodingKeys: String, CodingKey {
        case container, codec, width, height, rotation, bitDepth = "bit_depth", duration, frameRate = "frame_rate", interval, samples
        case framesRead = "frames_read", secondsRead = "seconds_read", capped
    }

    public func encode(to encoder: any Encoder) throws {
        let style = RecordStyle.of(encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(container, forKey: .container)
        try c.encode(codec, forKey: .codec)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(rotation, forKey: .rotation)
        try c.encode(bitDepth, forKey: .bitDepth)
        try c.encodeIfPresent(duration.map { style.round($0, 3) }, forKey: .duration)
        try c.encodeIfPresent(frameRate.map { style.round($0, 3) }, forKey: .frameRate)
        try c.encode(style.round(interval, 3), forKey: .interval)
        try c.encode(samples, forKey: .samples)
        try c.encode(framesRead, forKey: .framesRead)
        try c.encode(style.round(secondsRead, 3), forKey: .secondsRead)
        try c.encode(capped, forKey: .capped)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            container: try c.decode(String.self, forKey: .container), codec: try c.decode(String.self, forKey: .codec),
            width: try c.decode(Int.self, forKey: .width), height: try c.decode(Int.self, forKey: .height),
            rotation: try c.decode(Int.self, forKey: .rotation), bitDepth: try c.decode(Int.self, forKey: .bitDepth),
            duration: try c.decodeIfPresent(Double.self, forKey: .duration), frameRate: try c.decodeIfPresent(Double.self, forKey: .frameRate),
            interval: try c.decode(Double.self, forKey: .interval))
        samples = try c.decode(Int.self, forKey: .samples)
        framesRead = try c.decode(Int.self, forKey: .framesRead)
        secondsRead = try c.decode(Double.self, forKey: .secondsRead)
        capped = try c.decode(Bool.self, forKey: .capped)
    }
}
