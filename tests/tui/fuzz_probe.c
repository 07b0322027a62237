int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)
{
	(void)d;
	(void)n;
	return 0;
}
