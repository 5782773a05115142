"""Tests of the C++ Machiavelli starter: python3 -m unittest (from sample-bots/cpp; needs g++ and
nlohmann-json3-dev).

The starter is built as `referee new-bot` writes it, bot.cpp in a directory of its own, with
-Wall -Wextra and every warning an error. Then it goes through the same checks as the Java
starter (`StarterChecks` of ../java/test_java_machiavelli.py: the protocol session, the Python
starter's cases, random positions and whole games, every table checked by the independent
validator of ../python/test_machiavelli.py), since both are ports of the same Python bot.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "java"))
from test_java_machiavelli import StarterChecks  # noqa: E402


@unittest.skipUnless(shutil.which("g++") and os.path.exists("/usr/include/nlohmann/json.hpp"),
                     "g++ or nlohmann-json3-dev is not installed")
class CppStarterTest(StarterChecks, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp()
        shutil.copy(os.path.join(HERE, "machiavelli_random.cpp"), os.path.join(cls.dir, "bot.cpp"))
        subprocess.run(["g++", "-std=c++17", "-O2", "-Wall", "-Wextra", "-Werror", "-o", "bot",
                        "bot.cpp"], cwd=cls.dir, check=True)
        cls.command = [os.path.join(cls.dir, "bot")]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)


if __name__ == "__main__":
    unittest.main()
