#define CLI_COMMIT "11561a7-dirty"
