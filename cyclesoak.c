/* placeholder until the program lands */
int main(void)
{
	return 1;
}
