"""The physical build-out of a sized cluster: fabric and its InfiniBand and LinkX parts, port
map, storage, power, racks, liquid cooling and the bill of materials."""
