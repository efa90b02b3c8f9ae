"""Tags the wheel for the platform its library was built on: the library is native code, so
the wheel is not pure Python. Scripts/build-wheel sets GEONEWS_WHEEL_TAG (from the glibc
version the library needs and the machine)."""
import os

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class PlatformTag(BuildHookInterface):
    def initialize(self, version, build_data):
        tag = os.environ.get("GEONEWS_WHEEL_TAG")
        if not tag:
            raise RuntimeError("build the wheel with Scripts/build-wheel, which builds the library and names its platform")
        build_data["pure_python"] = False
        build_data["tag"] = tag
