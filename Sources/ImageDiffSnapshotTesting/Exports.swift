@_exported import ImageDiff
@_exported import SnapshotTesting
