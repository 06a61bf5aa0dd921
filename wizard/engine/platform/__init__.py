"""What vSphere and NVIDIA AI Enterprise allow: the rule book (catalog checks and the platform
rules, each with its code and source), the software stack by release, the checklist and the
vSphere host and VM steps."""
