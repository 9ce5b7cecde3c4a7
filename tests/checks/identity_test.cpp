// Who may open the device nodes: decided from an explicit identity (uid, groups) and the
// nodes' owner, group and mode, so it is testable while the tests run as root.
#include <gtest/gtest.h>

#include "checks/check_test_support.hpp"
#include "checks/identity.hpp"

namespace npu_doctor::checks {
namespace {

FileInfo node(unsigned uid, unsigned gid, unsigned mode) {
  FileInfo f;
  f.exists = true;
  f.is_char_device = true;
  f.uid = uid;
  f.gid = gid;
  f.mode = mode;
  return f;
}

Identity user(unsigned uid, std::vector<unsigned> groups) {
  Identity who;
  who.uid = uid;
  who.gid = uid;
  who.groups = std::move(groups);
  return who;
}

TEST(CheckIdentity, AccessFromOwnerGroupAndMode) {
  const FileInfo davinci = node(0, 1000, 0660);  // root:HwHiAiUser rw-rw----
  EXPECT_TRUE(can_read_write(davinci, user(0, {})));             // root
  EXPECT_TRUE(can_read_write(davinci, user(1001, {1000})));      // in HwHiAiUser
  EXPECT_FALSE(can_read_write(davinci, user(1001, {})));         // not in the group
  EXPECT_FALSE(can_read_write(node(0, 1000, 0640), user(1001, {1000})));  // group may only read
  EXPECT_TRUE(can_read_write(node(0, 0, 0666), user(1001, {})));  // world-writable
  EXPECT_TRUE(can_read_write(node(1001, 0, 0600), user(1001, {})));  // owner
  // Owner bits apply to the owner even when the group would allow more.
  EXPECT_FALSE(can_read_write(node(1001, 1000, 0460), user(1001, {1000})));
  EXPECT_FALSE(can_read_write(FileInfo{}, user(0, {})));  // missing
}

TEST(CheckIdentity, PasswdAndGroupFiles) {
  const auto users = parse_passwd("root:x:0:0:root:/root:/bin/bash\n# comment\nbroken line\nalice:x:1001:1001::/home/alice:/bin/sh\n");
  ASSERT_EQ(users.size(), 2u);
  EXPECT_EQ(users[1].name, "alice");
  EXPECT_EQ(users[1].uid, 1001u);
  const auto groups = parse_group("HwHiAiUser:x:1000:alice, bob\nempty:x:5:\nbad:x:notanumber:\n");
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].members, (std::vector<std::string>{"alice", "bob"}));
  EXPECT_TRUE(groups[1].members.empty());
}

TEST(CheckIdentity, UsersAndProcessesFromTheMachinesFiles) {
  const SystemProbe member = testing::machine_probe("healthy-910b");
  const auto alice = identity_of_user(member, "alice");
  ASSERT_TRUE(alice);
  EXPECT_EQ(alice->uid, 43210u);
  EXPECT_TRUE(alice->in_group(1000));  // listed in HwHiAiUser
  const SystemProbe not_member = testing::machine_probe("devices-no-permission");
  EXPECT_FALSE(identity_of_user(not_member, "alice")->in_group(1000));
  EXPECT_FALSE(identity_of_user(member, "nobody-here"));

  const SystemProbe job = testing::machine_probe("numa-mismatch");
  const auto p = identity_of_process(job, 4242);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->uid, 0u);
  EXPECT_EQ(p->user, "root");
  EXPECT_EQ(p->origin, "process 4242");
  EXPECT_FALSE(identity_of_process(job, 999999));
}

}  // namespace
}  // namespace npu_doctor::checks
