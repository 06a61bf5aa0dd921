"""Files other tools read: the MIG partition config for NVIDIA's mig-parted."""
