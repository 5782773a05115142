"""Tests of the Java Machiavelli starter: python3 -m unittest (from sample-bots/java; needs javac).

The starter is built as `referee new-bot` writes it, Bot.java and Json.java in a directory of its own, with
every javac lint warning an error. Then it is played through its standard input and output with
the test kit of the Python samples (../python/test_machiavelli.py): the protocol session line by
line, the Python starter's cases, random positions and whole games that the kit's small referee
deals, every table the bot sends checked by the kit's independent validator.

`StarterChecks` holds the checks; the C++ starter's test (../cpp/test_cpp_machiavelli.py) runs
the same ones, since both are ports of the same Python bot.
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import test_machiavelli as kit  # noqa: E402  (the Python samples' test kit)


def answers(command, positions):
    """The bot's actions in positions (table, hand, max_jokers), a match of one request each,
    all in one process."""
    messages = [kit.HELLO]
    for i, (table, hand, max_jokers) in enumerate(positions):
        messages.append(kit.match_start(dict(kit.OPTIONS, jokers=True, jokers_per_meld=max_jokers)))
        messages.append(kit.request(i, table, hand))
    replies, code = kit.converse(command, messages + [{"type": "goodbye"}])
    assert code == 0 and len(replies) == len(positions) + 1, (code, replies)
    return [reply["action"] for reply in replies[1:]]


def games(test, command, seed):
    """Plays 8 hands (with and without jokers, one or two a meld) of the bot against two Python
    starters; the kit's referee checks every table. Returns the bot's actions."""
    rng = random.Random(seed)
    actions = []
    for game in range(8):
        jokers, max_jokers = game % 2 == 1, 1 if game < 6 else 2
        bot = kit.ProcessBot(command, game + 2 ** 63, max_jokers)  # a seed beyond a signed long

        def recorded(view, max_jokers, bot=bot):
            actions.append(bot(view, max_jokers))
            return actions[-1]

        try:
            bots = [recorded, kit.python_starter(game), kit.python_starter(100 + game)]
            kit.play_hand(test, bots, rng, jokers, max_jokers)
        finally:
            bot.close()
    return actions


class StarterChecks:
    """The checks of a port of machiavelli_random.py; a TestCase sets `command`."""

    command = None

    def test_the_protocol_session(self):
        kit.ProtocolTest.check_session(self, self.command, rearranges=False)

    def test_exits_at_the_end_of_input_without_goodbye(self):
        replies, code = kit.converse(self.command, [kit.HELLO, kit.match_start(kit.OPTIONS),
                                                    kit.request(0, [], ["AC", "2C", "3C"])])
        self.assertEqual((code, len(replies)), (0, 2))

    def test_the_python_starters_cases(self):
        table = [["QD", "QH", "QS"]]
        cases = [  # (table, hand, max_jokers), then what the play must be
            (table, ["2C", "3C", "4C", "9D", "5D", "5H", "5S"], 1),
            (table, ["2C", "3C", "9D", "KS"], 1),
            ([], ["AC"], 1),
            ([], ["AS", "2S", "3S", "QS", "KS"], 1),
            ([], ["AS", "AS", "2S", "3S", "QS", "KS"], 1),
            ([], sorted([r + "H" for r in kit.RANKS] + ["AH"]), 1),
            ([], ["7C", "7H", "JK", "KS"], 1),
        ]
        actions = answers(self.command, cases)
        for (table, hand, max_jokers), action in zip(cases, actions):
            if "play" in action:
                self.assertIsNone(kit.play_error(table, hand, action["play"], max_jokers))
        melds = [sorted(map(sorted, a.get("play", []))) for a in actions]
        self.assertEqual(actions[0]["play"][0], ["QD", "QH", "QS"])  # the table kept, first
        self.assertEqual(melds[0], [["2C", "3C", "4C"], ["5D", "5H", "5S"], ["QD", "QH", "QS"]])
        self.assertEqual(actions[1:3], [{"draw": True}] * 2)
        self.assertEqual(len(melds[3]), 1)  # the ace low or high, not both
        self.assertEqual(melds[4], [["2S", "3S", "AS"], ["AS", "KS", "QS"]])  # one ace each
        self.assertEqual(len(sum(melds[5], [])), 13)  # A to K: the second ace stays
        self.assertEqual(melds[6], [["7C", "7H", "JK"]])

    def test_every_play_is_valid_in_random_positions(self):
        rng = random.Random(11)
        positions = []
        for i in range(1500):
            max_jokers = rng.choice([1, 1, 2])
            positions.append(kit.random_position(rng, i % 2 == 1, max_jokers) + (max_jokers,))
        actions = answers(self.command, positions)
        for (table, hand, max_jokers), action in zip(positions, actions):
            if "play" in action:
                self.assertIsNone(kit.play_error(table, hand, action["play"], max_jokers),
                                  (table, hand, action))
            else:
                self.assertEqual(action, {"draw": True})
        self.assertGreater(sum("play" in a for a in actions), 100)

    def test_whole_games_every_table_valid_and_the_same_twice(self):
        actions = games(self, self.command, 3)
        self.assertGreater(sum("play" in a for a in actions), 20, actions)
        self.assertEqual(actions, games(self, self.command, 3))  # the same seeds, the same play


@unittest.skipUnless(shutil.which("javac"), "javac is not installed")
class JavaStarterTest(StarterChecks, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp()
        shutil.copy(os.path.join(HERE, "machiavelli_random.java"),
                    os.path.join(cls.dir, "Bot.java"))
        shutil.copy(os.path.join(HERE, "Json.java"), cls.dir)
        subprocess.run(["javac", "-Xlint:all", "-Werror", "-d", "build", "Bot.java", "Json.java"],
                       cwd=cls.dir, check=True)
        cls.command = ["java", "-cp", os.path.join(cls.dir, "build"), "Bot"]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)


if __name__ == "__main__":
    unittest.main()
