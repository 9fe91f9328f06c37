@_exported import ImageDiff
@_exported import SnapshotFiles
@_exported import SnapshotRule
@_exported import SnapshotTesting
